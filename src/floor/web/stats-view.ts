import { html, nothing, type TemplateResult } from 'lit';
import { LightElement } from '../../display/web/light-element.js';
import { INCIDENT_NAMES, nameOf } from '../../display/web/messages.js';
import { FLOOR_API } from '../protocol.js';
import type { DownStats } from '../stats.js';
import { ft } from './messages.js';

/** The statistics per table and dealer down, fetched when shown; the CSV is the same rows. */
export class StatsView extends LightElement {
  static override properties = { downs: { state: true } };
  declare downs: DownStats[] | null;

  constructor() {
    super();
    this.downs = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void fetch(FLOOR_API.stats)
      .then((response) => response.json() as Promise<DownStats[]>)
      .then(
        (downs) => {
          this.downs = downs;
        },
        () => {
          this.downs = [];
        },
      );
  }

  protected override render(): TemplateResult {
    const language = this.language;
    const rate = (value: number | null) => (value === null ? '—' : value.toFixed(2));
    const time = (ms: number) => (ms === 0 ? '—' : new Date(ms).toLocaleString(language));
    return html`<section class="stats" data-testid="stats">
      <a class="csv" href=${FLOOR_API.statsCsv} download>${ft(language, 'csv')}</a>
      ${
        this.downs === null
          ? nothing
          : html`<table>
              <thead><tr>
                ${(['col.table', 'col.dealer', 'col.since', 'col.hands', 'col.incidents', 'col.misdeals', 'col.floor'] as const).map((key) => html`<th>${ft(language, key)}</th>`)}
              </tr></thead>
              <tbody>
                ${this.downs.map(
                  (down) => html`<tr data-testid="down-${down.table}">
                    <td>${down.table}</td>
                    <td>${down.dealer ?? ft(language, 'noDealer')}</td>
                    <td>${time(down.since)}</td>
                    <td>${down.hands}</td>
                    <td>${Object.entries(down.incidents)
                      .map(([code, n]) => `${nameOf(language, INCIDENT_NAMES, code)} ×${n}`)
                      .join(', ')}</td>
                    <td>${rate(down.misdealsPer100)}</td>
                    <td>${rate(down.floorCallsPer100)}</td>
                  </tr>`,
                )}
              </tbody>
            </table>`
      }
    </section>`;
  }
}

customElements.define('croupier-stats', StatsView);
