// The list of test projects. Vitest 4 no longer reads this file by itself;
// the root vitest.config.ts imports it into `test.projects`.
export default ['packages/*', 'apps/*'];
