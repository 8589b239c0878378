/**
 * Starts the training workers of the race the URL asks for before the page builds itself (main.ts
 * imports this first), so their scripts load while the page renders and reads its saved runs; the
 * training controller takes them over (src/worker/worker-client.ts). Names as the controller gives them.
 */
import { readPageState } from '../page/url-state.ts';
import { takeEstimatorParam } from '../page/estimator-share.ts';
import { startTrainingWorkersEarly } from '../worker/worker-client.ts';

startTrainingWorkersEarly(readPageState(takeEstimatorParam(location.search).rest).page.methods.map((m) => `training-${m}`));
