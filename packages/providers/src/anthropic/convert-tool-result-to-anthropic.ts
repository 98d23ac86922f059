import { formatResource, isBlobResource, loadedResource, mimeEssence, type ContentBlock } from '@jp/core';
import { mediaRefusal } from '../shared/media-limits.ts';
import { questionText } from '../shared/tool-result-text.ts';
import type { ToolResultBlockParam } from './anthropic-types.ts';
import { anthropicImage, anthropicImageType, anthropicPdfDocument } from './convert-resource-to-anthropic-block.ts';

type ToolResultContent = Exclude<ToolResultBlockParam['content'], string | undefined>;

/**
 * A tool's typed output as `tool_result` content: text as text; resources as the tool's
 * `formatted` presentation or `formatResource`, except images (image blocks) and PDFs (base64
 * documents) without a `formatted` form, which the model can read natively; questions as a line
 * of text. A deduplicated repeat carries its reference in `formatted`, so its bytes are not sent.
 */
export function convertToolResultToAnthropic(content: readonly ContentBlock[]): ToolResultContent {
  const blocks: ToolResultContent = [];
  for (const block of content) {
    switch (block.type) {
      case 'text':
        // Empty and whitespace-only text blocks are refused; the result keeps its other blocks.
        if (block.text.trim() !== '') blocks.push({ type: 'text', text: block.text });
        break;
      case 'resource': {
        const resource = loadedResource(block.resource);
        const imageType = anthropicImageType(resource.mimeType);
        const kind = imageType !== undefined ? 'image' : mimeEssence(resource.mimeType) === 'application/pdf' ? 'pdf' : undefined;
        const native = isBlobResource(resource) && block.formatted === undefined && resource.formatted === undefined && kind !== undefined;
        // Too big or cut: the model reads the resource's description instead of refused bytes.
        if (native && mediaRefusal(resource, kind, 'anthropic') !== undefined) blocks.push({ type: 'text', text: formatResource(resource) });
        else if (native && kind === 'image') blocks.push(anthropicImage(imageType!, resource));
        else if (native) blocks.push(anthropicPdfDocument(resource));
        else blocks.push({ type: 'text', text: block.formatted ?? formatResource(resource) });
        break;
      }
      case 'question':
        blocks.push({ type: 'text', text: questionText(block) });
        break;
    }
  }
  return blocks;
}
