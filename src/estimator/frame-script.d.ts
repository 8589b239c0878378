/** The estimator frame's script, bundled as text (scripts/estimator-frame-plugin.ts). */
declare module 'virtual:estimator-frame-script' {
  const script: string;
  export default script;
}
