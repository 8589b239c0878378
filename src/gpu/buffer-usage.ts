/**
 * GPUBufferUsage's flags as plain numbers (the WebGPU specification's values), so that a module can
 * name them at load time in Node, before the `webgpu` package has put `GPUBufferUsage` on the global.
 */
export const MAP_READ = 0x0001;
export const COPY_SRC = 0x0004;
export const COPY_DST = 0x0008;
export const STORAGE = 0x0080;
