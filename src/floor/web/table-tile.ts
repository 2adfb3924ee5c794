import { html, nothing, type TemplateResult } from 'lit';
import { LightElement } from '../../display/web/light-element.js';
import { INCIDENT_NAMES, nameOf, t } from '../../display/web/messages.js';
import type { TableTile } from '../protocol.js';
import { ft } from './messages.js';

/**
 * One table of the room: its link, phase and hand, profile, dealer, devices, and the code of its open
 * incident (or the dealer's call), coloured by urgency. Small: a tablet shows the whole pit at once.
 */
export class TableTileView extends LightElement {
  static override properties = { tile: { attribute: false } };
  declare tile: TableTile;

  protected override render(): TemplateResult {
    const language = this.language;
    const tile = this.tile;
    const down = tile.devices.filter((device) => device.status !== 'online');
    const call = tile.call;
    const state = call ? (call.urgent ? 'urgent' : 'incident') : tile.status === 'online' ? 'ok' : 'away';
    return html`<article class="tile tile-${state} status-${tile.status}" data-testid="floor-tile-${tile.id}" data-status=${tile.status} data-call=${call?.key ?? ''}>
      <header>
        <strong>${tile.id}</strong>
        <span class="tile-status" data-testid="tile-status-${tile.id}">${ft(language, `status.${tile.status}`)}</span>
      </header>
      <p class="tile-phase">
        ${tile.phase ? t(language, `phase.${tile.phase}`) : '—'}
        ${tile.hand === null ? nothing : html`· ${ft(language, 'hand', { n: tile.hand })}`}
      </p>
      <p class="muted" data-testid="tile-dealer-${tile.id}">${tile.dealer ? ft(language, 'dealer', { name: tile.dealer }) : ft(language, 'noDealer')}</p>
      <p class="muted">${tile.profile ?? ''}</p>
      <p class=${down.length > 0 ? 'devices-down' : 'muted'}>
        ${down.length > 0 ? ft(language, 'devicesDown', { ids: down.map((device) => `${device.id} ${device.status}`).join(', ') }) : ft(language, 'devicesOk')}
      </p>
      ${
        call
          ? html`<p class="tile-call" data-testid="tile-call-${tile.id}">
              ${call.kind === 'call' ? ft(language, 'dealerCall') : nameOf(language, INCIDENT_NAMES, call.incident ?? '')}
              ${call.coming ? html`<br /><span class="coming">${ft(language, 'coming', { name: call.coming.supervisor })}</span>` : nothing}
            </p>`
          : nothing
      }
    </article>`;
  }
}

customElements.define('croupier-tile', TableTileView);
