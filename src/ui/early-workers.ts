/**
 * Starts what the race the URL asks for will wait on, before the page builds itself (main.ts imports this
 * first): the training workers, whose scripts load while the page renders and reads its saved runs (the
 * training controller takes them over, src/worker/worker-client.ts); under `auto`, the adapter request
 * that keys the remembered verdict; and the shipped SFT prior where the race may start from it.
 * Names as the controller gives them.
 */
import { readPageState } from '../page/url-state.ts';
import { takeEstimatorParam } from '../page/estimator-share.ts';
import { prefetchShippedPrior } from '../page/shipped-prior.ts';
import { raceEntry } from '../race/entries.ts';
import { startTrainingWorkersEarly } from '../worker/worker-client.ts';
import { requestAdapterEarly } from './controllers/backend-probe-controller.ts';

const { config, page } = readPageState(takeEstimatorParam(location.search).rest);
startTrainingWorkersEarly(page.methods.map((m) => `training-${m}`));
if (config.backend === 'auto') requestAdapterEarly();
if (page.methods.length) prefetchShippedPrior(config, raceEntry(page.methods[0]).method);
