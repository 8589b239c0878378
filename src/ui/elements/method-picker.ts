/**
 * <method-picker>: which race entries race (2 to 4): the registered methods and their named variants
 * (src/race/entries.ts), each with its one-line description, and the race presets whose entries
 * exist (src/page/scenarios.ts).
 *
 * Sends `page-setting` with the new `methods` list; the page restarts the race with them.
 */
import { LitElement, css, html } from 'lit';
import { RACE_ENTRY_NAMES, raceEntry, type RaceEntryName } from '../../race/entries.ts';
import { availablePresets, presetSetsMore, presetState } from '../../page/scenarios.ts';
import { PAGE_FIELDS, type MethodListKind } from '../../page/page-settings.ts';
import { emit, type PageSettingDetail, type PresetLoadDetail } from '../events.ts';
import { methodLabel, sharedStyles } from '../theme.ts';

const LIMITS = PAGE_FIELDS.find((s) => s.key === 'methods')!.kind as MethodListKind;

export class MethodPicker extends LitElement {
  static override properties = {
    methods: { attribute: false },
  };

  /** The methods racing now, in panel order. */
  declare methods: readonly RaceEntryName[];

  constructor() {
    super();
    this.methods = [];
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      fieldset {
        border: none;
        margin: 0;
        padding: 0;
      }
      legend {
        font-weight: 650;
        margin-bottom: 6px;
      }
      .choices {
        display: flex;
        flex-wrap: wrap;
        gap: 8px 18px;
      }
      label {
        display: inline-flex;
        align-items: baseline;
        gap: 6px;
        font-size: 0.9rem;
      }
      .swatch {
        display: inline-block;
        width: 10px;
        height: 10px;
        border-radius: 2px;
        background: var(--method-color);
      }
      .desc {
        color: var(--fg-muted);
        font-size: 0.8rem;
      }
      .presets {
        display: flex;
        flex-wrap: wrap;
        gap: 6px;
        margin-top: 8px;
        align-items: center;
        font-size: 0.85rem;
      }
    `,
  ];

  override render() {
    const chosen = new Set(this.methods);
    return html`<fieldset>
        <legend>Methods in the race (${LIMITS.min} to ${LIMITS.max})</legend>
        <div class="choices">
          ${RACE_ENTRY_NAMES.map((m) => {
            const on = chosen.has(m);
            const locked = on ? this.methods.length <= LIMITS.min : this.methods.length >= LIMITS.max;
            const label = methodLabel(m);
            return html`<label style="--method-color: var(${label.color})" title=${raceEntry(m).description}>
              <input type="checkbox" .checked=${on} ?disabled=${locked} @change=${() => this.toggle(m)} />
              <span class="swatch" aria-hidden="true"></span>${label.name}
              <span class="desc">${raceEntry(m).description}</span>
            </label>`;
          })}
        </div>
      </fieldset>
      <div class="presets" role="group" aria-label="Race presets">
        <span>Presets:</span>
        ${availablePresets().map(
          (p) =>
            html`<button
              type="button"
              data-preset=${p.id}
              @click=${() => (presetSetsMore(p.query) ? emit<PresetLoadDetail>(this, 'preset-load', { query: p.query, label: p.label }) : this.choose(presetState(p.query)!.page.methods))}
            >
              ${p.label}
            </button>`,
        )}
      </div>`;
  }

  private toggle(m: RaceEntryName): void {
    const next = this.methods.includes(m) ? this.methods.filter((x) => x !== m) : [...this.methods, m];
    if (next.length >= LIMITS.min && next.length <= LIMITS.max) this.choose(next);
  }

  private choose(methods: readonly RaceEntryName[]): void {
    emit<PageSettingDetail>(this, 'page-setting', { changes: { methods } });
  }
}

customElements.define('method-picker', MethodPicker);

declare global {
  interface HTMLElementTagNameMap {
    'method-picker': MethodPicker;
  }
}
