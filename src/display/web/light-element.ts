import { LitElement, type PropertyDeclarations } from 'lit';
import type { Language } from '../protocol.js';

/**
 * Renders into the light DOM: one page-wide stylesheet styles every component, and browser tests find
 * the `data-testid` hooks without piercing shadow roots.
 */
export class LightElement extends LitElement {
  static override properties: PropertyDeclarations = { language: { attribute: false } };
  declare language: Language;

  constructor() {
    super();
    this.language = 'fr';
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }
}
