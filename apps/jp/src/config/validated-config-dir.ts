/*
 * Where validated configurations are remembered (validated-config-cache.ts), set by the CLI as it
 * starts. Its own module, without imports, so that setting it loads nothing a command may not need.
 */

let setting: { directory: string | undefined } = { directory: undefined };

/**
 * Remember validations under `dir` from now on in this process, reading what is there afresh;
 * `undefined` turns remembering off (the default).
 */
export function useValidatedConfigCache(dir: string | undefined): void {
  setting = { directory: dir };
}

/** The directory, and the setting it came with: a new setting means the file is read again. */
export function validatedConfigSetting(): { directory: string | undefined } {
  return setting;
}
