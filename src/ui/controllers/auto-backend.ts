/**
 * The training controller's side of `backend=auto` and of WebGPU's failures: where the race starts (the
 * probe controller's remembered winner, else wasm at once), the background measurement once every panel
 * shows its first point (so the probe never delays one), the move to WebGPU when it wins
 * (src/page/backend-switch.ts), and the wasm verdict stored when WebGPU fails a panel while training.
 * Once the race is on WebGPU by measurement, the probe also times 4 and 8 seeds side by side, and the
 * offer of 8 seeds stands where they cost at most 1.5 × one seed (src/page/seed-offer.ts); the race never
 * switches by itself.
 */
import type { ReactiveControllerHost } from 'lit';
import type { RaceConfig, TrainConfig } from '../../config.ts';
import { DEFAULT_RACE, methodSpec, type Method } from '../../methods/registry.ts';
import type { ProbeOutcome } from '../../page/backend-choice.ts';
import { movedSentence, switchDecision } from '../../page/backend-switch.ts';
import { OFFERED_SEEDS, PROBED_SEEDS, seedOffer, type SeedOffer } from '../../page/seed-offer.ts';
import { raceEntry, type RaceEntryName } from '../../race/entries.ts';
import type { ToWorker } from '../../worker/protocol.ts';
import type { PolicyWeights } from '../../policy/policy.ts';
import { BackendProbeController } from './backend-probe-controller.ts';

/** What the measurement needs to know of the race it may move. */
export interface RaceView {
  broadcast(message: ToWorker): void;
  /** The backend the race's workers report (null while none has). */
  current(): string | null;
  /** Every run reached its budget. */
  finished(): boolean;
  /** Changes when the race is started again: a measurement of an older start is dropped. */
  token(): number;
  /** Re-render the page. */
  changed(): void;
  /** The race's SFT prior at its first seed, once known (the probe trains from it as the race does). */
  prior(): PolicyWeights | null;
  /** Seeds per method the race trains. */
  seeds(): number;
}

export class AutoBackend {
  readonly probes: BackendProbeController;
  /** Under `auto` before measuring: the panels still without their first point, and what to measure. */
  private afterFirstPoints: { waiting: Set<RaceEntryName>; config: RaceConfig; method: Method } | null = null;
  /** The race's config, for a "Measure again" and for the verdict a GPU fault stores. */
  private config: RaceConfig | null = null;
  private method: Method = DEFAULT_RACE[0];
  /** The offer of more seeds, once measured on WebGPU (null: none stands). */
  offer: SeedOffer | null = null;

  constructor(
    host: ReactiveControllerHost,
    private readonly race: RaceView,
  ) {
    this.probes = new BackendProbeController(host);
  }

  get outcome(): ProbeOutcome | null {
    return this.probes.outcome;
  }

  /**
   * Where a race of `methods` at `config` starts: `config.backend` unless it is `auto`, which the
   * remembered verdict decides at once (else wasm, measured after the first points). Null when a later
   * start superseded this one.
   */
  async start(config: RaceConfig, methods: readonly RaceEntryName[]): Promise<TrainConfig['backend'] | null> {
    const token = this.race.token();
    this.afterFirstPoints = null;
    this.offer = null;
    // Timed on a built-in method: a visitor's estimator is not there to run in a probe worker.
    this.method = methods.map((m) => raceEntry(m).method).find((m) => !methodSpec(m).visitorCode) ?? DEFAULT_RACE[0];
    this.config = config;
    if (config.backend !== 'auto') {
      this.probes.forget();
      return config.backend;
    }
    const start = await this.probes.begin(config, this.method);
    if (token !== this.race.token()) return null;
    if (!start) return config.backend;
    if (!start.remembered) this.afterFirstPoints = { waiting: new Set(methods), config, method: this.method };
    return start.backend;
  }

  /** Notes `method`'s first point; once every panel has one, measures WebGPU in the background. */
  firstPoint(method: RaceEntryName): void {
    const pending = this.afterFirstPoints;
    if (!pending) return;
    pending.waiting.delete(method);
    if (pending.waiting.size > 0) return;
    this.afterFirstPoints = null;
    void this.measureAndMove(pending.config, pending.method);
  }

  /** Whether "Measure again" can run: the race is under `auto` and no measurement runs. */
  get canMeasureAgain(): boolean {
    return this.config?.backend === 'auto' && !this.probes.probing;
  }

  /** "Measure again" (the badge's button): forgets this adapter's verdict and measures the race now. */
  measureAgain(): void {
    if (!this.canMeasureAgain || !this.config) return;
    this.afterFirstPoints = null;
    void this.measureAndMove(this.config, this.method);
  }

  /** WebGPU failed a panel while training: the stored verdict becomes wasm with `reason`. */
  webgpuFailed(reason: string): void {
    if (this.config) void this.probes.webgpuFailed(this.config, this.method, reason);
  }

  /** A race restarted at `config` on a forced backend: no measurement goes on, none is shown. */
  forget(config: RaceConfig): void {
    this.config = config;
    this.probes.forget();
    this.afterFirstPoints = null;
    this.offer = null;
  }

  cancel(): void {
    this.probes.cancel();
    this.afterFirstPoints = null;
    this.offer = null;
  }

  /**
   * The badge's note on `auto`: where and why the race moved to WebGPU (`moved`: where each worker that
   * moved continued, of `panels`), or that the choice was remembered from an earlier visit; else empty.
   */
  note(moved: readonly number[], panels: number): string {
    const outcome = this.probes.outcome;
    // Said once every worker has moved: until then the badge still reports a worker on wasm.
    if (outcome && moved.length > 0) return moved.length === panels ? movedSentence(outcome, moved) : 'moving to webgpu at the next iteration boundary…';
    if (outcome && this.probes.remembered) return 'remembered from an earlier visit on this adapter';
    return '';
  }

  /** The background measurement; when WebGPU wins, every worker moves to it at its next iteration boundary. */
  private async measureAndMove(config: RaceConfig, method: Method): Promise<void> {
    const token = this.race.token();
    const outcome = await this.probes.measure(config, method, this.race.prior());
    if (!outcome || token !== this.race.token()) return;
    const decision = switchDecision(outcome, this.race.current(), this.race.finished());
    if (decision.move) this.race.broadcast({ type: 'move', backend: decision.to });
    this.race.changed();
    if (decision.move || this.race.current() === 'webgpu') await this.measureSeeds(config, method, outcome.webgpuMs, token);
  }

  /** Times 4 and 8 seeds on WebGPU beside the probe's one seed, and sets the offer where it stands. */
  private async measureSeeds(config: RaceConfig, method: Method, oneSeedMs: number | null, token: number): Promise<void> {
    if (oneSeedMs === null || this.race.seeds() >= OFFERED_SEEDS) return; // nothing to offer
    const timings = await this.probes.timeSeeds(config, method, this.race.prior(), PROBED_SEEDS);
    if (!timings || token !== this.race.token()) return;
    this.offer = seedOffer({ 1: oneSeedMs, ...timings }, this.race.seeds(), this.race.current());
    this.race.changed();
  }
}
