import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace.ts';

export default defineConfig({
  test: {
    projects,
    // CI reads the JSON report (see .ci/run); people read the default one.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
  },
});
