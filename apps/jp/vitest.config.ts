import { defineProject } from 'vitest/config';

// End-to-end tests start the built binary, often several times a test; on a loaded 2-core machine
// one can take seconds. These are hang guards, not speed checks (speed is measured in bench/).
export default defineProject({
  test: {
    name: 'jp-llm',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
