/**
 * Page entry: defines <beacon-live-app>, which reads the URL, starts the training worker and draws
 * everything. The backend badge inside it carries `data-backend` (webgpu | wasm | cpu) and each method
 * panel `data-method` and `data-iteration`: the contract the end-to-end tests read.
 */
import { methodColorCss } from './ui/theme.ts';
import './ui/beacon-live-app.ts';

const methodColors = document.createElement('style');
methodColors.textContent = methodColorCss();
document.head.append(methodColors);
