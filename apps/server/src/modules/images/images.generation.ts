import type { Static } from 'typebox';
import { ValidationError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { type AiClient, AiProviderError } from '../../integrations/ai/ai-client.ts';
import type { Services } from '../../services.ts';
import { closestGeneratedSize, cropToAspect } from './image-aspect.ts';
import { extensionOf, inspectImage } from './image-processing.ts';
import type { GeneratedImageSize, GenerateImageBody, Image } from './images.schemas.ts';
import { storeImage } from './images.service.ts';

/** A name made from a prompt stays short enough to read on a library card. */
const nameFromPromptMaxLength = 60;

/**
 * The first words of a prompt, on one line, cut at a word (with an ellipsis when cut): the name a
 * generated image gets unless it is given one.
 */
export function nameFromPrompt(prompt: string): string {
  const words = prompt
    // Control characters (line breaks included) separate words; a name is one line.
    .replace(/[\p{Cc}\p{Z}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  let name = '';
  for (const word of words) {
    const next = name ? `${name} ${word}` : word;
    if (next.length > nameFromPromptMaxLength) {
      // One long word alone is cut where it must be.
      const cut = name || word.slice(0, nameFromPromptMaxLength - 1);
      return `${cut.replace(/[\s,.;:!?-]+$/u, '')}…`;
    }
    name = next;
  }
  return name || 'Generated image';
}

/** A file name for people from the image's name: `red-fox-asleep-in-autumn.png`. */
function fileNameFor(name: string, extension: string): string {
  const stem = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return `${stem || 'generated-image'}.${extension}`;
}

/**
 * Generates one image with the organization's AI provider and stores it in the workspace's image
 * library exactly as an upload is stored. The prompt goes to the provider unchanged, as the image
 * request's data, and becomes the image's description. The provider's refusals arrive as the
 * client's errors (422 without an image model, 502 with the refusal in plain words); an answer
 * that is not an image Letterset can read is a 502 too.
 */
export async function generateLibraryImage(
  services: Pick<Services, 'database' | 'storage'>,
  client: AiClient,
  principal: Pick<Principal, 'organizationId' | 'userId'>,
  workspaceId: number,
  request: Static<typeof GenerateImageBody>,
): Promise<Static<typeof Image>> {
  if (request.prompt.trim() === '') throw ValidationError.field('prompt', "can't be blank");
  const size: GeneratedImageSize = request.aspect_ratio
    ? closestGeneratedSize(request.aspect_ratio)
    : (request.size ?? '1024x1024');
  const generated = await client.generateImage({
    feature: 'image_generation',
    prompt: request.prompt,
    size,
  });
  const answered = Buffer.from(
    generated.bytes.buffer,
    generated.bytes.byteOffset,
    generated.bytes.byteLength,
  );
  const readable = answered.length > 0 ? await inspectImage(answered) : null;
  if (!readable) {
    throw new AiProviderError(
      'The AI provider’s answer is not an image Letterset can read (a JPEG, PNG, GIF or WebP). ' +
        'Check that the image model in Settings › AI makes images, or try again.',
    );
  }
  // Whatever size the model answered with, the image ends in the proportion asked for.
  const bytes = request.aspect_ratio
    ? await cropToAspect(answered, readable, request.aspect_ratio)
    : answered;
  const inspected = bytes === answered ? readable : await inspectImage(bytes);
  if (!inspected) throw new Error('a cropped image could not be read');
  const name = request.name ?? nameFromPrompt(request.prompt);
  return storeImage(services, principal, workspaceId, bytes, inspected, {
    name,
    description: request.prompt,
    filename: fileNameFor(name, extensionOf[inspected.format]),
  });
}
