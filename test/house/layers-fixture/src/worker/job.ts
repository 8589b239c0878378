// A worker that reads the page: worker-not-page must name it.
import { state } from '../page/state.ts';

export const job = state;
