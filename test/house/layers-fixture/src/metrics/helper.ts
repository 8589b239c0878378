import { view } from '../ui/view.ts';

export const helper = view;
