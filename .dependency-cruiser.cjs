/**
 * Import rules (npm run deps, inside npm test): the layers of the house run one way. A wrong import
 * fails with the rule's name. Run `npx depcruise --config .dependency-cruiser.cjs src envs cli bench test`
 * to see every violation.
 *
 * The parser is swc (TypeScript 7 has no compiler API for dependency-cruiser), which does not tell
 * type-only imports apart: every import counts, so the rules hold for types too.
 */

/** Settings, maths, methods, metrics and environments: the core that every command, the page and the study read. */
const CORE = '^(src/config[.]ts|src/prng[.]ts|src/advantages/|src/methods/|src/metrics/|envs/)';

module.exports = {
  forbidden: [
    {
      name: 'core-loads-no-runtime',
      comment:
        'Settings, maths, methods, metrics and environments must load no tfjs, no Lit and nothing of the ' +
        'page, the workers, the GPU kernels, the backends or the trainer, not even through another module: ' +
        'the CLI flags, the advantage calculator and the study read them without a tensor library.',
      severity: 'error',
      from: { path: CORE },
      to: {
        path: '^(src/(ui|page|worker|gpu|backend|trainer|policy|study|engine)/|node_modules/(@tensorflow|lit|@lit|lit-html|lit-element|uplot)/)',
        pathNot: '^src/backend/names[.]ts$',
        reachable: true,
      },
    },
    {
      name: 'maths-below-methods-and-settings',
      comment: 'src/advantages/ is the maths the methods and the settings are made of; it reads neither.',
      severity: 'error',
      from: { path: '^src/advantages/' },
      to: { path: '^(src/methods/|src/race/|src/config[.]ts)' },
    },
    {
      name: 'methods-below-settings',
      comment: "src/config.ts lists the registry's methods; a method reads the settings structurally, never the table.",
      severity: 'error',
      from: { path: '^src/methods/' },
      to: { path: '^(src/config[.]ts|src/race/)' },
    },
    {
      name: 'kernels-below-engine',
      comment: 'The WGSL kernels (src/gpu/) know nothing of the trainer or of the engine that chooses them.',
      severity: 'error',
      from: { path: '^src/gpu/' },
      to: { path: '^src/(trainer|engine|worker|page|ui)/' },
    },
    {
      name: 'worker-not-page',
      comment: 'The training worker runs without the page: what both need (race entries, seeds, speeds) lives below both, in src/race/.',
      severity: 'error',
      from: { path: '^src/worker/' },
      to: { path: '^src/(page|ui)/' },
    },
    {
      name: 'page-data-not-elements',
      comment: "src/page/ is the page's data, testable in Node: it never imports the Lit elements of src/ui/.",
      severity: 'error',
      from: { path: '^src/page/' },
      to: { path: '^src/ui/' },
    },
    {
      name: 'src-not-tools',
      comment: 'The product never imports its commands, benchmarks or tests.',
      severity: 'error',
      from: { path: '^(src|envs)/' },
      to: { path: '^(cli|bench|test)/' },
    },
    {
      name: 'bench-not-test',
      comment: 'Benchmarks share helpers with the tests through scripts/ (serve the build, launch Chromium, run a command), never by reaching into test/.',
      severity: 'error',
      from: { path: '^bench/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-circular',
      comment: 'An import cycle makes load order matter and the layers meaningless.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    parser: 'swc',
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
