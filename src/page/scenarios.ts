/**
 * The guided tour and the race presets: one data table each. A scenario is a story told by a URL preset
 * (its narrative, what to look at, and the settings that show it); a race preset is a set of methods
 * (and, for "Thousands of runs", the batch that shows what a GPU buys).
 *
 * Presets are written as URL queries and checked by the page's own URL reader against the method
 * registry, its named variants (src/race/entries.ts) and the settings table, so a scenario or preset that names a method or setting that does
 * not exist yet stays hidden, and appears as soon as it is registered. No list of "supported" names
 * is kept here.
 */
import { DEFAULT_PAGE_SETTINGS } from './page-settings.ts';
import { PAGE_DEFAULT_CONFIG } from './page-defaults.ts';
import { STUDY_FINDINGS } from './study-findings.ts';
import { readPageState, type PageState } from './url-state.ts';

/** The study's measured sentence for a scenario, generated from study.json (src/study/findings.ts). */
function measured(id: string): string {
  const sentence = STUDY_FINDINGS[id];
  if (sentence === undefined) throw new Error(`src/page/study-findings.ts has no sentence for the scenario ${id}: run npm run -s study:docs`);
  return sentence;
}

export interface Scenario {
  /** Stable key (for tests and links). */
  id: string;
  title: string;
  /** One paragraph: what the scenario shows and why. */
  narrative: string;
  /** Where to look while it trains. */
  lookAt: string;
  /** The settings, as a URL query over the page defaults. */
  query: string;
}

export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'grpo-stalls',
    title: 'GRPO stalls on long tasks',
    narrative:
      'Without the SFT prior (random initial weights), a policy almost never finishes a long household task, so every run of a group fails, every run scores 0, and GRPO’s group-normalised advantage is 0 for every step: there is nothing to learn from. BEACON still sees which runs reached which milestones and gives them credit, so it climbs while GRPO stays flat until chance successes give its groups something to compare.',
    lookAt:
      'The race chart: BEACON’s success rate rises while GRPO stays near 0 for dozens of iterations. In the metric panels, GRPO’s zero-advantage ratio stays near 100%.',
    query: 'methods=grpo,beacon&horizon=long&sftEpisodes=0',
  },
  {
    id: 'gamma-1',
    title: 'γ = 1 is GRPO',
    narrative:
      'With γ = 1 every completed step of a segment earns the same shaped reward, every segment’s per-step return equals its group baseline, and the segment term A_seg vanishes. BEACON then gives exactly GRPO’s advantages: same seed, same tasks, same curve. What makes BEACON work is the discount inside a segment, which pays reaching a milestone quickly.',
    lookAt: 'The two curves of the race chart lie on top of each other; the credit views show A_seg bars at 0.',
    query: 'methods=grpo,beacon&gamma=1',
  },
  {
    id: 'random-segments',
    title: 'Random segments',
    narrative:
      'The segments are cut at random steps instead of at the milestones the environment detects. The shaped rewards no longer mark real progress, so the segment term becomes noise that the trajectory term must overcome: the milestones, not the mere splitting of runs, carry BEACON’s signal.',
    lookAt: 'BEACON’s curve falls back towards GRPO’s; in the credit view the shaded segments no longer end at the stars.',
    query: 'methods=grpo,beacon&randomSegments=true',
  },
  {
    id: 'dropout',
    title: 'Half the milestones dropped',
    narrative:
      'Each detected milestone is dropped with probability 0.5, as if the detector missed half of them. Segments merge and credit gets coarser, yet BEACON keeps much of its lead: imperfect milestone detectors still help.',
    lookAt: 'Dashed milestone chips in the episode view are the dropped ones; compare BEACON’s curve with the first scenario.',
    query: 'methods=grpo,beacon&milestoneDropout=0.5',
  },
  {
    id: 'no-trajectory-term',
    title: 'Milestones alone',
    narrative:
      'The trajectory term is switched off, so BEACON’s advantage is λ · A_seg alone and the task’s final outcome is ignored. Milestones alone still teach the sub-goals, but nothing rewards finishing the task once they are reached.',
    lookAt: 'The outcome mix in BEACON’s panel: partial successes grow faster than full ones.',
    query: 'methods=grpo,beacon&trajectoryTerm=false',
  },
  {
    id: 'medium',
    title: 'Shorter tasks: both learn',
    narrative:
      'On medium-length tasks random runs sometimes succeed, groups are mixed, and GRPO gets a signal too. Both methods learn; BEACON’s advantage shows mostly in how early it crosses the target line.',
    lookAt: 'The iterations-to-target markers on the race chart.',
    query: 'methods=grpo,beacon&horizon=medium',
  },
  {
    id: 'gamma-0',
    title: 'γ = 0: only the milestone step',
    narrative:
      'With γ = 0 only the step that completes a milestone earns a shaped reward; the steps leading to it get none. Credit is as sharp as it can be, and the steps that set the milestone up are left to the trajectory term.',
    lookAt: 'The credit view: A_seg is positive only at the stars.',
    query: 'methods=grpo,beacon&gamma=0',
  },
  {
    id: 'gigpo',
    title: 'BEACON vs GiGPO',
    narrative:
      'GiGPO, the paper’s strongest baseline, groups the steps that visit the same environment state across runs and compares their returns. It needs repeated states; BEACON needs milestones. On these tasks both find a signal where GRPO finds none.',
    lookAt: 'The race chart, and GiGPO’s anchor-state coverage in its panel.',
    query: 'methods=beacon,gigpo',
  },
  {
    id: 'released',
    title: 'The released code’s variant',
    narrative:
      'The released BEACON code differs from the paper: it takes group statistics over step rows (weighting runs by their length) and normalises both terms. The race shows whether the difference matters on these tasks.',
    lookAt: 'Compare BEACON’s curve with the first scenario’s.',
    query: 'methods=grpo,beacon&variant=released',
  },
  {
    id: 'critic',
    title: 'Why not a critic?',
    narrative:
      'PPO with a learned critic estimates each state’s value and credits each step with its advantage over it. It needs a second network, its own updates and time to learn; BEACON gets step-level credit from the milestones without one.',
    lookAt: 'The time split in PPO’s panel (the critic’s forward and backward passes) and the race chart’s early iterations.',
    query: 'methods=ppo,beacon',
  },
  {
    id: 'webshop',
    title: 'WebShop: milestones tied to success',
    narrative:
      'The shop is WebShop made small: search with a query, page through results, open a product, choose its options, buy. Its milestones are page transitions (the results list the wanted product, its page is open, its options are chosen, it is bought), and each one is a step on the only path to success, while a household task has sub-goals that can be done and then wasted. This is where the paper finds BEACON’s segment term strong on its own (WebShop keeps 67.9% without the trajectory term, ALFWorld collapses to 23.4%).',
    lookAt:
      'The episode view draws the page the agent sees, with a beacon at each milestone click; compare the outcome mix with GridHouse’s: partial successes here are runs that stopped on the path, not detours. The third panel is BEACON as the released code computes it, with the settings it ships for WebShop (γ = 0.95, λ = 1).',
    // The released code's config for WebShop (γ = 0.95, λ = 1) races here, on the shop it was shipped for.
    query: 'methods=grpo,beacon,beaconReleasedWebshop&env=shop',
  },
  {
    id: 'write-your-own',
    title: 'Write your own',
    narrative:
      'Your estimator races GRPO and BEACON on the same tasks, seed and prior. It starts as GRPO written in a dozen lines of JavaScript (so its curve lies on GRPO’s), in the editor below the panels: export default function estimate(batch, settings) returns one advantage per step of every run. The challenge: beat GRPO without reading milestones (rewards, run lengths and state keys only), then beat BEACON. Apply restarts only your panel, from the same prior and seed.',
    lookAt: 'The editor under the metric panels; your panel’s zero-advantage ratio against GRPO’s, and the race chart’s iterations to the target.',
    query: 'methods=grpo,beacon,custom',
  },
  {
    id: 'reward-shaping',
    title: 'Is it just reward shaping?',
    narrative: `Shaped-reward PPO gives the same milestone rewards R_ms to a learned critic instead of turning them into segment credit. ${measured('reward-shaping')} Shaping needs a critic (a second network, its updates, its warm-up), BEACON does not, and one race on one seed settles nothing.`,
    lookAt: 'The race chart’s early iterations, and the time split in the PPO panel (the critic’s passes) against BEACON’s.',
    query: 'methods=beacon,ppoShaped',
  },
  {
    id: 'thousands',
    title: 'Thousands of runs',
    narrative:
      'Every iteration plays 64 tasks × 64 runs = 4,096 runs per method, 64 times the page’s default batch. On WebGPU the rollout, the advantages and the update run on the GPU in a few dispatches, so a wide batch costs little more time than a narrow one; on wasm every step of every run is played on the CPU, and an iteration takes many times longer (the page says how long before it starts). The race chart plots success against environment steps: what a GPU buys is experience per second, not updates.',
    lookAt:
      'Each panel’s env steps per second, and the race chart against env steps (the x axis toggle under it). A software adapter (SwiftShader) is a CPU too: its figures say nothing about a GPU.',
    query: 'methods=grpo,beacon&tasksPerIteration=64&groupSize=64&raceX=envSteps',
  },
  {
    id: 'ccr-paradox',
    title: 'The credit-concentration paradox',
    narrative: `The paper reports that the best method puts the least credit on milestone steps: a credit concentration ratio (CCR, docs/maths.md §5) of 0.84 for BEACON against 2.36 for GiGPO. The credit view shows why: a failed run’s last segment (after its last milestone) gets only the trajectory term, which is negative, and that negative term also cancels most of the segment credit of the milestones the run did reach. ${measured('ccr-paradox')}`,
    lookAt: 'The CCR in each panel, and in BEACON’s credit view a failed run: its milestone steps’ bars are small because A_traj pulls every step down.',
    query: 'methods=beacon,gigpo&env=texthouse',
  },
  // The detector settings (docs/maths.md §6): what happens to milestone credit when Φ is not the task's.
  {
    id: 'gameable-detector',
    title: 'A detector the policy can game',
    narrative: `The loose detector reads the right kind of side effect but not its target: any key taken, any door opened, any object taken, treated or put down counts as a milestone. Taking an apple and putting it back fires it twice, so segment credit now pays for busywork as well as progress. BEACON keeps its trajectory term, which only pays runs that finish the task: that term is what can still hold the policy to the result. ${measured('gameable-detector')}`,
    lookAt:
      'The credit view: stars on steps that did nothing for the task (a take, then a put back). BEACON’s outcome mix against GRPO’s, which never reads milestones; then the next scenario, the same detector without the trajectory term.',
    query: 'methods=grpo,beacon&looseMilestones=true',
  },
  {
    id: 'gameable-detector-no-trajectory',
    title: 'A gamed detector, and nothing checks the result',
    narrative: `The same loose detector with the trajectory term switched off: BEACON’s advantage is λ · A_seg alone, and every fire of the detector is paid whether or not the task gets done. This is the paper’s lesson the other way round: checking each sub-task does not replace checking the result. A detector the policy can trigger without progress, and no term that reads the outcome, rewards whatever triggers it. ${measured('gameable-detector-no-trajectory')}`,
    lookAt:
      'BEACON’s partial and failed runs against GRPO’s and against the previous scenario; in the credit view, look for positive bars on take-and-put steps of failed runs.',
    query: 'methods=grpo,beacon&looseMilestones=true&trajectoryTerm=false',
  },
  {
    id: 'coarse-milestones',
    title: 'Milestones too coarse',
    narrative: `Only every second milestone counts (milestoneStride = 2), so segments are twice as long and fewer runs of a group reach a boundary at all. The paper’s warning: as milestones get sparser, the segment term has less to compare and BEACON drifts towards GRPO. ${measured('coarse-milestones')}`,
    lookAt: 'BEACON’s curve against GRPO’s and against the first scenario; the credit view’s segments span two sub-goals each.',
    query: 'methods=grpo,beacon&milestoneStride=2',
  },
  {
    id: 'fine-milestones',
    title: 'Milestones too fine',
    narrative: `The finer detector adds verifiable intermediate transitions between the task’s milestones: entering the room that holds the next target, a results page for the wanted kind of product. Segments get shorter and each holds fewer steps to compare, so the paper’s other warning applies: too dense, and segment advantages get noisy. ${measured('fine-milestones')}`,
    lookAt: 'The credit view: more stars per run, shorter shaded segments; BEACON’s curve against the first scenario’s.',
    query: 'methods=grpo,beacon&fineMilestones=true',
  },
  {
    id: 'sloppy-teacher',
    title: 'A sloppy teacher',
    narrative: `Every method starts from an SFT prior cloned from an oracle, and the SFT baseline keeps cloning it. Real demonstrations are imperfect: here the teacher takes a random admissible action at 30% of its steps (demoNoise = 0.3). SFT copies the slips along with the plan; RL methods can learn past a worse start, since they learn from outcomes, not from the teacher. ${measured('sloppy-teacher')}`,
    lookAt: 'SFT’s curve against BEACON’s and GRPO’s, and where each starts at iteration 0 (the prior they share).',
    query: 'methods=grpo,beacon,sft&demoNoise=0.3',
  },
];

export interface RacePreset {
  id: string;
  label: string;
  query: string;
}

export const RACE_PRESETS: readonly RacePreset[] = [
  { id: 'grpo-beacon', label: 'GRPO vs BEACON', query: 'methods=grpo,beacon' },
  { id: 'beacon-gigpo', label: 'BEACON vs GiGPO', query: 'methods=beacon,gigpo' },
  { id: 'four-rl', label: 'All four RL methods', query: 'methods=grpo,beacon,gigpo,ppo' },
  // BEACON against its released variant (src/race/entries.ts): the variant's panel alone runs the
  // released code's computation and its ALFWorld settings (γ = 0.9, λ = 10, R_ms = 10, mean normalisation).
  { id: 'paper-released', label: 'BEACON’s paper vs released variant', query: 'methods=beacon,beaconReleased' },
  // Not only methods: the batch too (what a GPU buys), plotted against env steps. Loaded like a scenario.
  { id: 'thousands', label: 'Thousands of runs (64 × 64)', query: 'methods=grpo,beacon&tasksPerIteration=64&groupSize=64&raceX=envSteps' },
];

/** True when a preset sets more than the methods (it is then loaded like a scenario, settings and all). */
export function presetSetsMore(query: string): boolean {
  return [...new URLSearchParams(query).keys()].some((k) => k !== 'methods');
}

const BASE: PageState = { config: PAGE_DEFAULT_CONFIG, page: DEFAULT_PAGE_SETTINGS };

/** The state a preset sets up (over the page defaults), or null when it names something that does not exist. */
export function presetState(query: string): PageState | null {
  const { config, page, issues } = readPageState(query, BASE);
  return issues.length === 0 ? { config, page } : null;
}

/** The scenarios whose methods and settings all exist, in tour order. */
export function availableScenarios(): Scenario[] {
  return SCENARIOS.filter((s) => presetState(s.query) !== null);
}

export function availablePresets(): RacePreset[] {
  return RACE_PRESETS.filter((p) => presetState(p.query) !== null);
}

/**
 * The state after loading a scenario: its settings over the defaults, keeping how the page is shown and
 * the backend (a property of this machine, not of the story).
 */
export function applyPreset(query: string, current: PageState): PageState | null {
  const state = presetState(query);
  if (!state) return null;
  return {
    config: { ...state.config, backend: current.config.backend },
    page: { ...state.page, present: current.page.present, speed: current.page.speed, smoothing: current.page.smoothing, autostart: current.page.autostart },
  };
}
