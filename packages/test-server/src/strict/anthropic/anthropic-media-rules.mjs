// Image and PDF limits of the Messages API.
//   https://platform.claude.com/docs/en/build-with-claude/vision#general-limits — 100 images per request on
//   200k-context models, 600 on the others; 8000x8000 px, 2000x2000 px when a request has more than 20 images;
//   5 MB per image through the API (wording from captured 400s, see README).
//   https://platform.claude.com/docs/en/build-with-claude/pdf-support — 32 MB request, 100 pages.
/** @import { AnthropicModel } from './anthropic-models.mjs' */
/** @import { Rejection } from './anthropic-config-rules.mjs' */
import { imageSize, pdfPageCount } from '../image-size.mjs';

const FIVE_MB = 5 * 1024 * 1024;

/**
 * Every image and document block with its path, including those nested in tool results.
 * @param {any[]} messages
 * @returns {{ path: string, block: any }[]}
 */
function mediaBlocks(messages) {
  /** @type {{ path: string, block: any }[]} */
  const found = [];
  messages.forEach((message, i) => {
    if (!Array.isArray(message?.content)) return;
    message.content.forEach((/** @type {any} */ block, /** @type {number} */ j) => {
      const path = `messages.${i}.content.${j}`;
      if (block?.type === 'image' || block?.type === 'document') found.push({ path, block });
      if (block?.type === 'tool_result' && Array.isArray(block.content)) {
        block.content.forEach((/** @type {any} */ inner, /** @type {number} */ k) => {
          if (inner?.type === 'image' || inner?.type === 'document') found.push({ path: `${path}.content.${k}`, block: inner });
        });
      }
    });
  });
  return found;
}

/**
 * @param {any} body
 * @param {AnthropicModel} row
 * @returns {Rejection | undefined}
 */
export function anthropicMediaProblem(body, row) {
  const media = mediaBlocks(Array.isArray(body.messages) ? body.messages : []);
  const images = media.filter((entry) => entry.block.type === 'image');
  const maxImages = row.context !== null && row.context <= 200_000 ? 100 : 600;
  if (images.length > maxImages) return { message: `messages: too many images in the request: ${images.length} > ${maxImages}` };
  const maxSide = images.length > 20 ? 2000 : 8000;
  let pages = 0;
  for (const { path, block } of media) {
    if (block.source?.type !== 'base64' || typeof block.source.data !== 'string') continue;
    const data = block.source.data;
    if (block.type === 'image') {
      if (data.length > FIVE_MB) return { message: `${path}.image.source.base64: image exceeds 5 MB maximum: ${data.length} bytes > ${FIVE_MB} bytes` };
      const size = imageSize(Buffer.from(data, 'base64'));
      if (size && (size.width > maxSide || size.height > maxSide)) {
        const many = images.length > 20 ? ' for many-image requests' : '';
        return { message: `${path}.image.source.base64.data: At least one of the image dimensions exceed max allowed size${many}: ${maxSide} pixels` };
      }
    } else if (block.source.media_type === 'application/pdf') {
      pages += pdfPageCount(Buffer.from(data, 'base64'));
    }
  }
  if (pages > 100) return { message: 'A maximum of 100 PDF pages may be provided.' };
  return undefined;
}
