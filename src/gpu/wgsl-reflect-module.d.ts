// wgsl_reflect's package.json points Node at a CommonJS build its "type": "module" makes Node misread,
// so code imports its ES module build by path, which has the package's types.
declare module 'wgsl_reflect/wgsl_reflect.module.js' {
  export * from 'wgsl_reflect';
}
