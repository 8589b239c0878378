/**
 * <explainer-section>: "What am I seeing": the two advantage estimators in the notation of docs/maths.md
 * (§2–4), what each chart measures (the metric-docs table, §5), and the ablations (§6).
 */
import { LitElement, css, html } from 'lit';
import { methodSpec } from '../../methods/registry.ts';
import { raceEntry, type RaceEntryName } from '../../race/entries.ts';
import { METRIC_DOCS, type MetricKey } from '../../page/metric-docs.ts';
import { sharedStyles } from '../theme.ts';

const CHART_METRICS: MetricKey[] = [
  'success',
  'outcomeMix',
  'sampleUtilization',
  'zeroAdvantageRatio',
  'contradictoryRatio',
  'signalRetention',
  'ccr',
  'iterationsToTarget',
];

export class ExplainerSection extends LitElement {
  static override properties = {
    methods: { attribute: false },
  };

  /** The methods racing now: each is introduced by its one-line description from the registry. */
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
      .card {
        line-height: 1.6;
        font-size: 0.95rem;
      }
      h2 {
        font-size: 1.2rem;
        margin-bottom: 8px;
      }
      h3 {
        margin: 18px 0 6px;
        font-size: 1rem;
      }
      p {
        margin: 0 0 10px;
        max-width: 75ch;
      }
      .math {
        display: block;
        margin: 8px 0 12px;
        padding: 10px 14px;
        border-radius: 8px;
        background: var(--surface-2);
        font: 1.05rem/1.7 var(--math);
        overflow-x: auto;
        white-space: nowrap;
      }
      /* On a phone a formula wraps rather than scrolls sideways: a scrolled region would need a keyboard stop of its own. */
      @media (max-width: 700px) {
        .math {
          white-space: normal;
          overflow-wrap: anywhere;
        }
      }
      var {
        font-family: var(--math);
      }
      dl {
        display: grid;
        grid-template-columns: minmax(9rem, max-content) 1fr;
        gap: 6px 16px;
        margin: 0;
        max-width: 90ch;
      }
      dt {
        font-weight: 650;
      }
      dd {
        margin: 0;
        color: var(--fg-muted);
      }
      @media (max-width: 560px) {
        dl {
          grid-template-columns: 1fr;
        }
        dd {
          margin-bottom: 8px;
        }
      }
      ul {
        margin: 0 0 10px;
        padding-left: 1.2em;
        max-width: 80ch;
      }
    `,
  ];

  override render() {
    return html`<section class="card" aria-labelledby="what">
      <h2 id="what">What am I seeing?</h2>
      <p>
        Copies of the same small policy network learn household tasks in your browser. Every iteration each
        method plays <var>N</var> tasks, <var>G</var> runs per task (a <em>group</em>), then makes a PPO update.
        Every method gets the same tasks in the same order from the same seed; they differ only in the
        <em>advantage</em> <var>A</var>: how much each action of a run is pushed up or down.
      </p>

      <h3>The methods in this race</h3>
      <dl class="methods">
        ${this.methods.map((m) => raceEntry(m)).map((e) => html`<dt>${e.label}</dt><dd>${e.description} <span class="formula">(${methodSpec(e.method).formula})</span></dd>`)}
      </dl>

      <h3>Why every method starts from a prior</h3>
      <p>
        In the paper every method starts from a pretrained language model that already solves some tasks, and RL
        refines it. A small network with random weights almost never finishes a long household task: every run of
        every group fails, and a method that scores whole runs has nothing to compare. That measures exploration from
        nothing, not credit assignment. So before RL, one copy of the policy is trained by behaviour cloning on
        <var>N</var> oracle episodes of tasks that never appear in training, and every method
        starts from those same weights. The chart's iteration 0 is measured on them; <code>auto</code> picks the
        <var>N</var> per environment at which the first iterations of a long task succeed a few percent of the time.
        Set <var>N</var> = 0 under the chart to watch the race from random weights.
      </p>

      <h3>GRPO: one score per run</h3>
      <p>Run <var>i</var> gets final reward <var>R<sub>i</sub></var> (the success reward if it solved the task, else 0), compared with its group:</p>
      <span class="math">A<sub>traj</sub>(i) = (R<sub>i</sub> − mean<sub>group</sub> R) / (std<sub>group</sub> R + ε), &nbsp; and every step of the run gets A(i, t) = A<sub>traj</sub>(i).</span>
      <p>
        A run that reached three of five sub-goals scores the same 0 as a run that did nothing, and a good action in
        a run that later failed is pushed down. When all runs of a group fail (or all succeed) every advantage is 0.
      </p>

      <h3>BEACON: credit per milestone segment</h3>
      <p>
        The environment's milestone detector Φ fires when a sub-goal is completed (key taken, door unlocked, object
        heated, object placed). The milestones cut a run into segments; the steps after the last milestone form the
        incomplete <em>tail</em>. Inside a completed segment <var>k</var> that ends at step <var>t<sub>k</sub></var>, each step earns a shaped reward
      </p>
      <span class="math">r<sub>t</sub> = R<sub>ms</sub> · γ<sup>t<sub>k</sub> − t</sup>, &nbsp; ρ<sub>k</sub>(i) = (Σ<sub>t ∈ Seg<sub>k</sub></sub> r<sub>t</sub>) / L<sub>k</sub>(i) &nbsp; (per-step return; falls as the segment length L<sub>k</sub> grows)</span>
      <p>and is compared only with the runs of its group that also reached milestone <var>k</var>:</p>
      <span class="math">A<sub>seg</sub>(i, t) = r<sub>t</sub> − b<sub>k</sub>, &nbsp; b<sub>k</sub> = mean<sub>j ∈ G<sub>k</sub></sub> ρ<sub>k</sub>(j), &nbsp; G<sub>k</sub> = { j : K<sub>j</sub> ≥ k }; &nbsp; A<sub>seg</sub> = 0 on the tail</span>
      <span class="math">A(i, t) = A<sub>traj</sub>(i) + λ · A<sub>seg</sub>(i, t) &nbsp; (defaults γ = 0.95, λ = 1)</span>
      <p>
        So partial successes carry signal, reaching a sub-goal quickly earns more than wandering to it, and the tail of
        a failed run keeps <var>A<sub>traj</sub></var> alone: its bars in the credit view are all equal (with the paper's
        baseline; the released code's <code>stepMean</code> baseline also gives tail steps a negative A<sub>seg</sub>). With γ = 1 every
        completed step earns R<sub>ms</sub>, A<sub>seg</sub> vanishes and BEACON is exactly GRPO.
      </p>

      <h3>The charts</h3>
      <dl>
        ${CHART_METRICS.map((k) => html`<dt>${METRIC_DOCS[k].label}</dt><dd>${METRIC_DOCS[k].doc}</dd>`)}
      </dl>

      <h3>The episode and credit views</h3>
      <p>
        For each method, one run of the latest batch is replayed in a fresh copy of its environment (same task seed,
        same actions). Milestones light up when they are reached. Beside it, bars show <var>A<sub>traj</sub></var>,
        <var>A<sub>seg</sub></var> (before λ) and <var>A</var> for each step; shaded bands are completed segments, stars
        mark milestones, hatching marks the incomplete tail.
      </p>

      <h3>Ablations</h3>
      <ul>
        <li><b>γ = 1</b>: uniform credit inside segments, A<sub>seg</sub> ≡ 0; the BEACON curve matches GRPO.</li>
        <li><b>γ = 0</b>: only the milestone step itself is rewarded.</li>
        <li><b>Random segmentation</b>: segment boundaries at random steps instead of milestones.</li>
        <li><b>Milestone dropout p</b>: each detected milestone is dropped with probability p (dashed chips in the viewer).</li>
        <li><b>No trajectory term</b>: A = λ · A<sub>seg</sub>; the task's final outcome is ignored.</li>
      </ul>
      <p>Ablations change BEACON only; the GRPO panel always shows the plain baseline, trained on the same tasks.</p>
    </section>`;
  }
}

customElements.define('explainer-section', ExplainerSection);

declare global {
  interface HTMLElementTagNameMap {
    'explainer-section': ExplainerSection;
  }
}
