import type { Config } from '../config/config-schema.ts';
import { catalogModel } from '../models/model-catalog.ts';

/**
 * The context window of `model` at `provider`, in tokens, as the model catalog knows it (RFD 031:
 * `providers.<p>.models."<id>".context_window`, the cached listing, jp's table); undefined when
 * nothing knows it (jp then never compacts by itself before sending, and still handles the
 * provider's rejection). OpenRouter's ids name their vendor (`anthropic/claude-…`) and find that
 * vendor's row.
 */
export function contextWindowOf(provider: string, model: string, config: Pick<Config, 'providers'>, env: NodeJS.ProcessEnv = process.env): number | undefined {
  return catalogModel(config, provider, model, env)?.contextWindow;
}
