// The import boundaries of docs/adr/0042, checked by `npm run lint` (depcruise).

/**
 * The layers, bottom to top. A file may import its own layer and the layers below it,
 * never one above; layers on one floor (rest-facade, mcp) do not import each other.
 * A path is a regular expression on the path from the repository root.
 */
export const LAYERS = [
  { name: 'contracts', path: '^contracts/' },
  { name: 'runtime', path: '^runtime/' },
  { name: 'subgraphs', path: '^subgraphs/' },
  { name: 'gateway', path: '^gateway/' },
  { name: 'edge', path: '^edge/' },
  { name: 'rest-facade', path: '^rest-facade/', floor: 'edges' },
  { name: 'mcp', path: '^mcp/', floor: 'edges' },
  { name: 'server', path: '^server/' },
  { name: 'entry points', path: '^(main\\.ts$|schema/|scripts/|bench/)' },
];

const above = (index) => LAYERS.slice(index + 1).filter((layer) => !LAYERS[index].floor || layer.floor !== LAYERS[index].floor);
const beside = (index) => LAYERS.filter((layer, at) => at !== index && layer.floor !== undefined && layer.floor === LAYERS[index].floor);

const layerRules = LAYERS.flatMap((layer, index) => {
  const upward = above(index);
  const sideways = beside(index);
  return [
    ...(upward.length > 0
      ? [
          {
            name: `${layer.name}-not-upward`,
            comment: `${layer.name} sits below ${upward.map((other) => other.name).join(', ')}: it may not import them.`,
            severity: 'error',
            from: { path: layer.path },
            to: { path: upward.map((other) => other.path).join('|') },
          },
        ]
      : []),
    ...(sideways.length > 0
      ? [
          {
            name: `${layer.name}-not-sideways`,
            comment: `${layer.name} and ${sideways.map((other) => other.name).join(', ')} share a floor: what both need lives in edge/.`,
            severity: 'error',
            from: { path: layer.path },
            to: { path: sideways.map((other) => other.path).join('|') },
          },
        ]
      : []),
  ];
});

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    ...layerRules,
    {
      name: 'contracts-self-contained',
      comment: 'contracts/ describes the operations and imports nothing of the project outside itself.',
      severity: 'error',
      from: { path: '^contracts/' },
      to: { dependencyTypes: ['local', 'aliased'], pathNot: '^contracts/' },
    },
    {
      name: 'subgraph-not-another',
      comment: 'A subgraph imports no other subgraph; what they share is subgraphs/shared.',
      severity: 'error',
      from: { path: '^subgraphs/(library|research|operations)/' },
      to: { path: '^subgraphs/(library|research|operations)/', pathNot: '^subgraphs/$1/' },
    },
    {
      name: 'subgraphs-shared-not-a-subgraph',
      comment: 'subgraphs/shared serves every subgraph and imports none of them.',
      severity: 'error',
      from: { path: '^subgraphs/shared/' },
      to: { path: '^subgraphs/', pathNot: '^subgraphs/shared/' },
    },
    {
      name: 'no-circular',
      comment: 'Files do not import each other in a circle (type-only imports count).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'operations-modules-not-circular',
      comment: 'The operations modules (core, iam, eam, sagas, …) depend on each other one way.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^subgraphs/operations/[^/]+' },
      to: { path: '^subgraphs/operations/[^/]+', circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|test|console|dist|\\.data|\\.tools|artifacts)/' },
    // Type-only imports are dependencies too: a circle of types is still a circle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
