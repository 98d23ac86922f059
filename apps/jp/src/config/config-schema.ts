import { z } from 'zod';

const ProviderConfigSchema = z.strictObject({
  /** Endpoint, in the SDK's own convention (OpenAI-compatible ones include /v1). */
  base_url: z.string().url().optional(),
  /** Name of the environment variable holding the key. The key itself is never stored. */
  api_key_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional(),
});

const McpServerConfigSchema = z.strictObject({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
  /** Seconds for the server to start and answer `initialize`. */
  startup_timeout_secs: z.number().positive().default(10),
  /** Seconds for one request (`resources/read`, `resources/list`, …). */
  request_timeout_secs: z.number().positive().default(30),
});

/**
 * jp's configuration. Every field is optional or defaulted, so a partial layer (one file, one
 * `-c`, one conversation delta) validates on its own and errors can name their source.
 */
export const ConfigSchema = z.strictObject({
  assistant: z
    .strictObject({
      /** `provider/model`, or `echo`. */
      model: z.string().min(1).optional(),
      system_prompt: z.string().optional(),
      max_tokens: z.number().int().positive().optional(),
      request: z.strictObject({ max_retries: z.number().int().min(0).max(10).default(3) }).prefault({}),
    })
    .prefault({}),
  conversation: z
    .strictObject({
      /** Declared attachments: resolved into the first query that does not have them yet. */
      attachments: z.array(z.string()).default([]),
      attachment: z
        .strictObject({
          /** Above max_bytes: allow, truncate, reject, or ask (on a terminal; reject without one). */
          size_policy: z.enum(['allow', 'truncate', 'reject', 'ask']).default('ask'),
          max_bytes: z.number().int().positive().default(512 * 1024),
          max_files: z.number().int().positive().default(500),
          http: z
            .strictObject({
              max_bytes: z.number().int().positive().default(10 * 1024 * 1024),
              timeout_secs: z.number().positive().default(30),
              max_redirects: z.number().int().min(0).default(5),
            })
            .prefault({}),
          cmd: z
            .strictObject({
              timeout_secs: z.number().positive().default(30),
              max_output_bytes: z.number().int().positive().default(10 * 1024 * 1024),
            })
            .prefault({}),
        })
        .prefault({}),
      /** Seconds to wait for another process's turn on the same conversation. */
      lock_timeout_secs: z.number().min(0).default(10),
    })
    .prefault({}),
  providers: z.record(z.string(), ProviderConfigSchema).default({}),
  mcp: z.record(z.string(), McpServerConfigSchema).default({}),
});
export type Config = z.infer<typeof ConfigSchema>;
