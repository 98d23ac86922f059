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
          size_policy: z.enum(['allow', 'truncate', 'reject']).default('reject'),
          max_bytes: z.number().int().positive().default(512 * 1024),
          max_files: z.number().int().positive().default(500),
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
