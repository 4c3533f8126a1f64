/**
 * The dependency rules of Letterset (ARCHITECTURE.md, "Layers"), checked by `npm run check:dependencies`
 * in CI. The server's code is in layers, lowest first; a file imports its own layer and the layers
 * below, never above. Nothing anywhere forms an import cycle, type-only imports included.
 */

/** apps/server/src, lowest layer first: each entry is the paths (regular expressions) of one layer. */
const serverLayers = [
  {
    name: 'platform',
    paths: [
      'config\\.ts',
      'services\\.ts',
      'db/',
      'http/',
      'security/',
      'storage/',
      'render-pool/',
      'backups/',
      'integrations/',
      'jobs/job-payloads\\.ts',
      'jobs/queue\\.ts',
    ],
  },
  {
    name: 'identity',
    modules: [
      'roles',
      'users',
      'invitations',
      'sessions',
      'me',
      'workspaces',
      'teams',
      'projects',
      'api-keys',
      'audit-logs',
      'notifications',
      'system',
    ],
  },
  { name: 'ai-configuration', modules: ['ai-settings', 'ai-agents', 'ai-reviewers'] },
  {
    name: 'design-systems',
    modules: [
      'organizations',
      'email-design-systems',
      'components',
      'brand-profiles',
      'layouts',
      'email-content',
    ],
  },
  {
    name: 'dynamic-content',
    modules: [
      'dynamic-content-profiles',
      'conditionals',
      'personalization-tags',
      'link-tracking-profiles',
      'feeds',
    ],
  },
  { name: 'emails', modules: ['emails', 'renders', 'images'] },
  { name: 'exports-and-connectors', modules: ['exports', 'connectors'] },
  {
    name: 'review',
    modules: ['approval-workflows', 'review-groups', 'review-assignments', 'email-comments'],
  },
  { name: 'localization', modules: ['email-translations', 'translation-spreadsheets'] },
  { name: 'ai-and-mcp', modules: ['ai-generation', 'email-chat', 'mcp-servers', 'mcp-apps'] },
  // What puts the server together: the job kinds, the module list, the app, the process.
  {
    name: 'composition',
    modules: ['setup'],
    paths: [
      'jobs/(?!job-payloads\\.ts|queue\\.ts)',
      'modules/index\\.ts',
      'app\\.ts',
      'server-process\\.ts',
      'main\\.ts',
      'test/',
    ],
  },
];

const server = 'apps/server/src/';
/** Tests and the code only tests use (*-test-support.ts, *-test-setup.ts; test/ is in composition). */
const testCode = '(\\.test\\.ts|-test-support\\.ts|-test-setup\\.ts)$';

function layerPattern(layer) {
  const paths = [...(layer.paths ?? []), ...(layer.modules ?? []).map((module) => `modules/${module}/`)];
  return `^${server}(${paths.join('|')})`;
}

const layerRules = serverLayers.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer.name}`,
  comment: `The ${layer.name} layer imports only its own layer and the ones below it (ARCHITECTURE.md, "Layers").`,
  severity: 'error',
  from: { path: layerPattern(layer), pathNot: testCode },
  to: { path: serverLayers.slice(index + 1).map(layerPattern) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No import cycles in the server or core, type-only imports included.',
      severity: 'error',
      from: { path: '^(apps/server/src|packages/core/src)/' },
      to: { circular: true },
    },
    {
      name: 'server-files-in-a-layer',
      comment: 'Every server file belongs to a layer: a new folder is placed in .dependency-cruiser.cjs.',
      severity: 'error',
      from: { path: `^${server}`, pathNot: [...serverLayers.map(layerPattern), testCode] },
      to: {},
    },
    ...layerRules,
    {
      name: 'only-composition-imports-the-app',
      comment: 'Services take what they use (services.ts); only the server process and tests build the app.',
      severity: 'error',
      from: {
        path: `^${server}`,
        pathNot: [`^${server}(main|server-process)\\.ts$`, `^${server}test/`, testCode],
      },
      to: { path: `^${server}app\\.ts$` },
    },
    {
      name: 'services-do-not-import-job-definitions',
      comment:
        'Services send jobs by name (jobs/job-payloads.ts); job definitions import services, never the reverse.',
      severity: 'error',
      from: { path: `^${server}modules/` },
      to: { path: `^${server}jobs/(?!job-payloads\\.ts|queue\\.ts)` },
    },
    {
      name: 'core-imports-no-app',
      comment: 'packages/core is shared by the server and the browser: it imports neither.',
      severity: 'error',
      from: { path: '^packages/core/src/', pathNot: '\\.test\\.ts$' },
      to: { path: '^apps/' },
    },
    {
      name: 'core-uses-no-node-builtins',
      comment: 'packages/core runs in the browser and in worker threads: no Node built-ins (no I/O).',
      severity: 'error',
      from: { path: '^packages/core/src/', pathNot: '\\.test\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'web-does-not-import-server',
      comment: 'The web app talks to the server through the generated API client only.',
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: '^apps/(server|docs)/' },
    },
    {
      name: 'web-components-use-query-modules',
      comment:
        "Screens read and write through their feature's query module (<feature>-api.ts); only those modules, the session's and the root route (which hears of an expired session) use the API client.",
      severity: 'error',
      from: {
        path: '^apps/web/src/',
        pathNot: [
          '^apps/web/src/app/',
          '^apps/web/src/routes/__root\\.tsx$',
          '-api\\.ts$',
          '\\.test\\.tsx?$',
        ],
      },
      to: { path: '^apps/web/src/app/api\\.ts$' },
    },
    {
      name: 'server-does-not-import-other-apps',
      severity: 'error',
      from: { path: '^apps/server/' },
      to: { path: '^apps/(web|docs)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '/dist/', '\\.gen\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
