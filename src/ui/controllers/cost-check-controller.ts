/**
 * The cost check before a wide race: loading a tour scenario or a preset that would race many runs per
 * iteration on wasm or cpu first shows what an iteration will cost here (src/page/scale-estimate.ts), and
 * loads it only when the visitor chooses to run it. It listens on its host for `scenario-select`,
 * `preset-load` and `cost-answer`; the host draws `<cost-check>` while `pending` is set.
 */
import type { ReactiveControllerHost } from 'lit';
import { availableScenarios, presetState } from '../../page/scenarios.ts';
import { estimateCost, needsCostCheck, type CostEstimate, type CostMeasurement } from '../../page/scale-estimate.ts';
import type { PageStateController } from './page-state.ts';
import type { TrainingController } from './training-controller.ts';

export interface PendingCostCheck {
  title: string;
  estimate: CostEstimate;
  load: () => void;
}

/** Holds no lifecycle of its host: it asks the host to update when `pending` changes. */
export class CostCheckController {
  /** A wide race about to load on wasm or cpu: its estimated cost, shown before it runs. */
  pending: PendingCostCheck | null = null;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly state: PageStateController,
    private readonly training: TrainingController,
  ) {
    host.addEventListener('scenario-select', (e) => this.loadScenario(e.detail.index));
    host.addEventListener('preset-load', (e) => this.check(e.detail.query, e.detail.label, () => state.loadQuery(e.detail.query)));
    host.addEventListener('cost-answer', (e) => {
      const pending = this.pending;
      this.pending = null;
      host.requestUpdate();
      if (e.detail.run) pending?.load();
    });
  }

  /** Loads scenario `index` of the tour, after the cost check when it is a wide race on the CPU. */
  loadScenario(index: number): void {
    const scenario = availableScenarios()[index];
    if (scenario) this.check(scenario.query, scenario.title, () => this.state.loadScenario({ index }));
  }

  /**
   * Runs `load` at once, or, when the preset `query` would race many runs per iteration on wasm or cpu,
   * after the visitor has seen what it will cost here and chosen to run it.
   */
  private check(query: string, title: string, load: () => void): void {
    const target = presetState(query);
    const runs = target ? target.config.tasksPerIteration * target.config.groupSize : 0;
    const configured = this.state.config.backend;
    const backend = this.training.backend?.report.backend ?? (configured === 'wasm' || configured === 'cpu' ? configured : null);
    if (!needsCostCheck(backend, runs)) {
      load();
      return;
    }
    this.pending = { title, estimate: estimateCost(backend!, runs, this.measuredCost()), load };
    this.host.requestUpdate();
  }

  /** Seconds per iteration measured here: the slowest panel's recent pace, else the probe's wasm timing. */
  private measuredCost(): CostMeasurement | null {
    const runs = this.state.config.tasksPerIteration * this.state.config.groupSize;
    const rates = this.training.methods.map((m) => this.training.histories[m]?.iterationsPerSecond() ?? Number.NaN).filter((r) => r > 0);
    if (rates.length) return { secondsPerIteration: 1 / Math.min(...rates), runs, source: 'this race’s last iterations' };
    const probeMs = this.training.probe?.wasmMs;
    if (probeMs) return { secondsPerIteration: probeMs / 1000, runs, source: 'the backend probe’s timing on wasm' };
    return null;
  }
}
