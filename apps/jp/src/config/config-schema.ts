import * as z from 'zod';
import { TOOL_POLICIES } from '@jp/core';
import { ENV_NAME, referenceError } from './env-references.ts';

/**
 * The longest timeout jp accepts, in seconds: Node's timers hold at most 2^31 - 1 ms (about 24.8
 * days) and fire at once when given more. A longer setting is rejected, not clamped (RFD 010).
 */
export const MAX_TIMEOUT_SECS = 2_147_483;

/** A timeout in seconds (fractions allowed), within what a timer can hold. */
function timeoutSecs(min: 'positive' | 'zero') {
  const number = min === 'positive' ? z.number().positive() : z.number().min(0);
  return number.max(MAX_TIMEOUT_SECS, `at most ${MAX_TIMEOUT_SECS} seconds (about 24 days), the longest timer jp can set`);
}

/**
 * jp's configuration. Every field is optional or defaulted, so a partial layer (one file, one
 * `-c`, one conversation delta) validates on its own and errors can name their source. Built on
 * first use, not at load: a command whose configuration was validated before (validate-config.ts)
 * never builds it.
 */
function buildConfigSchema() {
  /** The name of an environment variable (a key's variable, an `env_from` source). */
  const EnvNameSchema = z.string().regex(ENV_NAME, 'must be an environment variable name (letters, digits and _)');

  /** An `env` value: literal text with `${NAME}` references, expanded from jp's environment at spawn time. */
  const EnvValueSchema = z.string().superRefine((value, ctx) => {
    const error = referenceError(value);
    if (error !== undefined) ctx.addIssue({ code: 'custom', message: error });
  });

  /**
   * A model's prices in US dollars per million tokens (`jp conversation show --html` estimates cost
   * from them). Cache reads and writes cost what input does unless given.
   */
  const ModelPriceSchema = z.strictObject({
    input: z.number().min(0),
    output: z.number().min(0),
    cache_read: z.number().min(0).optional(),
    cache_write: z.number().min(0).optional(),
  });

  /**
   * What the user says of one model (`providers.<p>.models."<id>"`); each key set here wins over the
   * provider's listing and jp's table (RFD 031). Efforts and thinking types are the vendor's words.
   */
  const ModelFactsSchema = z.strictObject({
    context_window: z.number().int().positive().optional(),
    max_output_tokens: z.number().int().positive().optional(),
    /** The effort values it takes, lowest first (`none`, `minimal`, `low`, …, as the vendor spells them); `[]`: it does not reason. */
    reasoning_efforts: z.array(z.string().min(1)).optional(),
    /** Anthropic: the `thinking.type` values it takes. */
    thinking_types: z.array(z.enum(['adaptive', 'enabled', 'disabled', 'between_tools'])).optional(),
    /** The thinking budget range in tokens, where it takes a budget. */
    thinking_budget: z.strictObject({ min: z.number().int().min(0), max: z.number().int().positive() }).optional(),
    structured_output: z.boolean().optional(),
    image_input: z.boolean().optional(),
    pdf_input: z.boolean().optional(),
  });
  const ProviderConfigSchema = z.strictObject({
    /** Endpoint, in the SDK's own convention (OpenAI-compatible ones include /v1). */
    base_url: z.string().url().optional(),
    /** Name of the environment variable holding the key. The key itself is never stored. */
    api_key_env: EnvNameSchema.optional(),
    /** Prompt-cache lifetime where the vendor offers a choice (Anthropic: 5m, its default, or 1h). */
    cache_ttl: z.enum(['5m', '1h']).optional(),
    /** Prices by model id (without the provider), over jp's defaults (RFD 022). */
    prices: z.record(z.string().min(1), ModelPriceSchema).optional(),
    /** Facts about models by id (without the provider), over the provider's listing and jp's table (RFD 027, RFD 031). */
    models: z.record(z.string().min(1), ModelFactsSchema).optional(),
  });

  const McpServerConfigSchema = z.strictObject({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    /** Set in the server's environment; `${NAME}` in a value is taken from jp's environment when it starts. */
    env: z.record(z.string(), EnvValueSchema).default({}),
    /** `GITHUB_TOKEN = "MY_GH_TOKEN"`: the server's GITHUB_TOKEN is jp's MY_GH_TOKEN (only the name is stored). */
    env_from: z.record(z.string(), EnvNameSchema).default({}),
    cwd: z.string().optional(),
    /** Seconds for the server to start and answer `initialize`. */
    startup_timeout_secs: timeoutSecs('positive').default(10),
    /** Seconds for one request (`resources/read`, `resources/list`, …). */
    request_timeout_secs: timeoutSecs('positive').default(30),
    /** The server's tools offered to the model: all of them (`true`) or the named ones. */
    tools: z.union([z.boolean(), z.array(z.string())]).default(false),
    /** How the server's tools run: without asking, or after a yes on the terminal. */
    run: z.enum(['unattended', 'ask']).default('ask'),
  });

  /** A local tool: a program that gets its arguments as JSON on stdin and answers on stdout (RFD 058). */
  const LocalToolConfigSchema = z.strictObject({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    description: z.string().min(1),
    /** JSON Schema of the arguments object. */
    parameters: z.record(z.string(), z.unknown()).default({ type: 'object', properties: {} }),
    run: z.enum(['unattended', 'ask']).default('ask'),
    timeout_secs: timeoutSecs('positive').default(60),
    /** Largest stdout accepted before the tool is stopped (bytes). */
    max_output_bytes: z.number().int().positive().default(1024 * 1024),
    /**
     * A long-running program the model spawns, watches, feeds and stops within one query (RFD 019):
     * `process` wraps a plain program; `protocol` is a program that speaks the stateful protocol.
     */
    stateful: z.enum(['process', 'protocol']).optional(),
    /** The actions offered to the model for a stateful tool; all four when left out. */
    actions: z
      .array(z.enum(['spawn', 'fetch', 'apply', 'abort']))
      .min(1)
      .refine((actions) => new Set(actions).size === actions.length, 'each action at most once')
      .optional(),
    /** A stateful tool's handle is stopped after this long (default 1800). */
    max_runtime_secs: timeoutSecs('positive').optional(),
  });

  /** How a declaration's files are watched between turns (RFD 020, "Freshness notices"). */
  const RefreshPolicySchema = z.enum(['notify', 'manual']);

  /**
   * One entry of `conversation.attachments`: a string, or a table that also says how it is watched
   * (`{ url = "src/", refresh = "manual" }`; `attachment-declaration.ts`).
   */
  const AttachmentDeclarationSchema = z.union([z.string(), z.strictObject({ url: z.string().min(1), refresh: RefreshPolicySchema.optional() })]);

  return z.strictObject({
    assistant: z
      .strictObject({
        /** `provider/model`, or `echo`. */
        model: z.string().min(1).optional(),
        system_prompt: z.string().optional(),
        max_tokens: z.number().int().positive().optional(),
        request: z.strictObject({ max_retries: z.number().int().min(0).max(10).default(3) }).prefault({}),
        /** Model calls in one turn before jp stops a model that keeps calling tools. */
        max_tool_rounds: z.number().int().positive().default(25),
        /** Handles of stateful tools one query may spawn (RFD 019). */
        max_tool_handles: z.number().int().positive().default(8),
        /** Run tools whose policy is `ask` without asking (the same as --allow-tools). */
        allow_tools: z.boolean().default(false),
        /** Print the model's reasoning (thinking) on stderr as it arrives; it is always stored. */
        show_reasoning: z.boolean().default(false),
        /** How much the model reasons: a level, or `{ budget_tokens = N }`; unset sends nothing (RFD 028). */
        reasoning: z
          .union([z.enum(['off', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']), z.strictObject({ budget_tokens: z.number().int().positive() })], {
            error: 'must be "off", "minimal", "low", "medium", "high", "xhigh", "max", or { budget_tokens = N }',
          })
          .optional(),
      })
      .prefault({}),
    conversation: z
      .strictObject({
        /** Declared attachments: resolved into the first query that does not have them yet. */
        attachments: z.array(AttachmentDeclarationSchema).default([]),
        attachment: z
          .strictObject({
            /** Above max_bytes: allow, truncate, reject, or ask (on a terminal; reject without one). */
            size_policy: z.enum(['allow', 'truncate', 'reject', 'ask']).default('ask'),
            /**
             * Declared files whose source changed since their newest snapshot: `notify` adds a notice
             * to the next turn's request; `manual` says nothing (RFD 020, "Freshness notices").
             */
            refresh: RefreshPolicySchema.default('notify'),
            max_bytes: z.number().int().positive().default(512 * 1024),
            max_files: z.number().int().positive().default(500),
            http: z
              .strictObject({
                max_bytes: z.number().int().positive().default(10 * 1024 * 1024),
                timeout_secs: timeoutSecs('positive').default(30),
                max_redirects: z.number().int().min(0).default(5),
              })
              .prefault({}),
            cmd: z
              .strictObject({
                timeout_secs: timeoutSecs('positive').default(30),
                max_output_bytes: z.number().int().positive().default(10 * 1024 * 1024),
              })
              .prefault({}),
          })
          .prefault({}),
        /** Seconds to wait for another process's turn on the same conversation. */
        lock_timeout_secs: timeoutSecs('zero').default(10),
        /**
         * Resources the model was already given (same URI, same sha256, earlier in the conversation)
         * are sent as a short reference instead of their content (RFD 008).
         */
        deduplication: z
          .strictObject({
            enabled: z.boolean().default(true),
            /** Smaller resources are always sent in full: a reference would save next to nothing. */
            min_bytes: z.number().int().min(0).default(300),
          })
          .prefault({}),
        /** What older snapshots of a resource become once a newer one is in the stream (RFD 020). */
        history: z
          .strictObject({
            /**
             * keep: always sent in full; omit: sent as a one-line stub; omit-when-cold: a stub only
             * when the provider's prompt cache has expired anyway (no request within cache_ttl_secs);
             * omit-when-cheaper: that, and while the cache is warm where the reads saved are estimated
             * to outweigh the cache rewrite.
             */
            superseded: z.enum(['keep', 'omit', 'omit-when-cold', 'omit-when-cheaper']).default('omit-when-cold'),
            /** The prompt-cache lifetime jp assumes; unset: the provider's (see supersededTtlSecs). */
            cache_ttl_secs: z.number().positive().max(MAX_TIMEOUT_SECS).optional(),
          })
          .prefault({}),
        /**
         * What `jp conversation compact` and `jp q --compact` do by default, and when jp compacts by
         * itself (RFD 027). Turns outside the first `keep_first` and the last `keep_last` lose their
         * reasoning, tool results (`tools`) and resource contents (stubs keep URI and MIME type).
         */
        compaction: z
          .strictObject({
            /** Near the model's context window: off sends as is; ask asks on a terminal; on compacts and says so. */
            auto: z.enum(['off', 'ask', 'on']).default('ask'),
            /** "Near": this share of the context window, estimated before sending. */
            threshold: z.number().gt(0).max(1).default(0.9),
            keep_first: z.number().int().min(0).default(0),
            keep_last: z.number().int().min(0).default(4),
            reasoning: z.boolean().default(true),
            tools: z.enum(TOOL_POLICIES).default('strip-results'),
            resources: z.boolean().default(true),
            /** A summary of the compacted turns, written by a model: costs a call, so off unless asked. */
            summarize: z.boolean().default(false),
            /** The model that writes summaries (`provider/model`); unset: the conversation's. */
            summary_model: z.string().min(1).optional(),
            /** Replaces jp's summary prompt. */
            summary_prompt: z.string().min(1).optional(),
          })
          .prefault({}),
      })
      .prefault({}),
    providers: z.record(z.string(), ProviderConfigSchema).default({}),
    /** How answers look on a terminal (RFD 026); pipes, files, -F json and -q always get the exact text. */
    style: z.strictObject({ render: z.boolean().default(true) }).prefault({}),
    /** The editor `jp q` opens for a query with no text; $VISUAL and $EDITOR come first (issue N). */
    editor: z.strictObject({ command: z.string().min(1).optional() }).prefault({}),
    mcp: z.record(z.string(), McpServerConfigSchema).default({}),
    tools: z.record(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), LocalToolConfigSchema).default({}),
  });
}

type ConfigSchemaType = ReturnType<typeof buildConfigSchema>;
export type Config = z.infer<ConfigSchemaType>;
/** What the user says of one model (`providers.<p>.models."<id>"`). */
export type ConfiguredModelFacts = NonNullable<Config['providers'][string]['models']>[string];

let built: ConfigSchemaType | undefined;

/** The configuration's schema, built once, the first time it is needed. */
export function configSchema(): ConfigSchemaType {
  return (built ??= buildConfigSchema());
}
