import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateImage, generateText, Output, stepCountIs, streamText, tool } from 'ai';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  defaultFakeReplyText,
  type FakeOpenAi,
  type FakeOpenAiRequest,
  type JsonSchema,
  sampleFromJsonSchema,
  startFakeOpenAi,
} from './fake-openai.ts';

const apiKey = 'sk-fake-test-key-0001';
const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKey });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const compatibleProvider = (options: { includeUsage?: boolean; key?: string } = {}) =>
  createOpenAICompatible({
    name: 'fake',
    baseURL: fake.baseUrl,
    apiKey: options.key ?? apiKey,
    supportsStructuredOutputs: true,
    includeUsage: options.includeUsage,
  });
const openAiProvider = (key = apiKey) => createOpenAI({ baseURL: fake.baseUrl, apiKey: key });

/** A streamed chunk as the tests read it off the wire. */
interface WireChunk {
  id: string;
  object: string;
  model: string;
  choices: {
    index: number;
    delta: {
      role?: string;
      content?: string | null;
      refusal?: string | null;
      tool_calls?: {
        index: number;
        id?: string;
        type?: string;
        function: { name?: string; arguments: string };
      }[];
    };
    finish_reason: string | null;
  }[];
  usage?: { completion_tokens: number } | null;
}

interface WireError {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** The raw server-sent events of a streamed completion, parsed. */
async function rawStream(body: Record<string, unknown>): Promise<{ chunks: WireChunk[]; done: boolean }> {
  const response = await fetch(`${fake.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      ...body,
    }),
  });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events = (await response.text()).split('\n\n').filter(Boolean);
  expect(events.every((event) => event.startsWith('data: '))).toBe(true);
  const payloads = events.map((event) => event.slice('data: '.length));
  return {
    chunks: payloads.filter((payload) => payload !== '[DONE]').map((payload) => JSON.parse(payload)),
    done: payloads.at(-1) === '[DONE]',
  };
}

const headlineSchema = z.object({
  headline: z.string(),
  bullets: z.array(z.string()),
  tone: z.enum(['friendly', 'formal']),
});

describe('structured output through the real SDK', () => {
  const scripted = {
    headline: 'Spring sale',
    bullets: ['20% off', 'Free shipping'],
    tone: 'friendly' as const,
  };

  it('answers Output.object via the OpenAI-compatible provider, with usage', async () => {
    fake.script({ kind: 'json', value: scripted });
    const result = await generateText({
      model: compatibleProvider().chatModel('m'),
      output: Output.object({ schema: headlineSchema }),
      prompt: 'Write a headline for the spring sale.',
    });
    expect(result.output).toEqual(scripted);
    const body = fake.seen[0]?.body;
    expect(body?.model).toBe('m');
    expect(body?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { schema: { type: 'object' } },
    });
    const completionTokens = Math.ceil(JSON.stringify(scripted).length / 4);
    expect(result.usage.outputTokens).toBe(completionTokens);
    expect(result.usage.inputTokens).toBeGreaterThan(10);
    expect(result.usage.totalTokens).toBe((result.usage.inputTokens ?? 0) + completionTokens);
    expect(result.response.modelId).toBe('m');
    expect(result.response.id).toMatch(/^chatcmpl-/);
  });

  it('answers Output.object via the OpenAI provider, and the key travels as a bearer token', async () => {
    fake.script({ kind: 'json', value: scripted });
    const result = await generateText({
      model: openAiProvider().chat('gpt-4o-mini'),
      output: Output.object({ schema: headlineSchema }),
      prompt: 'Write a headline.',
    });
    expect(result.output.tone).toBe('friendly');
    expect(result.usage.outputTokens).toBe(Math.ceil(JSON.stringify(scripted).length / 4));
    expect(fake.seen[0]?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(fake.seen[0]?.body?.response_format).toMatchObject({ type: 'json_schema' });
  });

  it('passes invalid JSON through as text, so the SDK reports it', async () => {
    fake.script({ kind: 'text', text: '{"headline": "cut off' });
    await expect(
      generateText({
        model: compatibleProvider().chatModel('m'),
        output: Output.object({ schema: headlineSchema }),
        prompt: 'Write a headline.',
      }),
    ).rejects.toThrow(/parse|No object generated/i);
  });

  it('answers an unscripted json_schema request with a value of that schema', async () => {
    const campaignSchema = z.object({
      subject: z.string().min(5).max(60),
      preheader: z.string(),
      sections: z
        .array(
          z.object({
            kind: z.enum(['hero', 'text', 'footer']),
            heading: z.string(),
            link: z.url(),
            accent: z.string().regex(/^#[0-9a-f]{6}$/),
            columns: z.number().int().min(1).max(3),
          }),
        )
        .min(2),
      audience: z.union([z.object({ segment: z.string() }), z.literal('everyone')]),
      sender: z.object({ name: z.string(), replyTo: z.email() }),
    });
    const result = await generateText({
      model: openAiProvider().chat('gpt-4o'),
      output: Output.object({ schema: campaignSchema }),
      prompt: 'Plan a campaign.',
    });
    expect(campaignSchema.safeParse(result.output).success).toBe(true);
    expect(result.output.sections).toHaveLength(2);
    expect(result.output.sections[0]?.accent).toBe('#000000');
    expect(result.output.sender.name).toBe('Sample name');
  });

  it('answers an unscripted JSON-mode request with a JSON object', async () => {
    const result = await generateText({
      model: openAiProvider().chat('gpt-4o'),
      output: Output.json(),
      prompt: 'Anything as JSON.',
    });
    expect(fake.seen[0]?.body?.response_format).toEqual({ type: 'json_object' });
    expect(result.output).toEqual({ reply: defaultFakeReplyText });
  });

  it('answers unscripted plain requests with the default sentence', async () => {
    const result = await generateText({ model: openAiProvider().chat('gpt-4o'), prompt: 'Hello?' });
    expect(result.text).toBe(defaultFakeReplyText);
    expect(result.finishReason).toBe('stop');
  });

  it('computes a reply from the request body', async () => {
    fake.script((body) => {
      const last = body.messages?.at(-1)?.content;
      return { kind: 'text', text: `[fr] ${typeof last === 'string' ? last : JSON.stringify(last)}` };
    });
    const result = await generateText({
      model: compatibleProvider().chatModel('m'),
      messages: [{ role: 'user', content: 'Spring sale' }],
    });
    expect(result.text).toBe('[fr] Spring sale');
  });

  it('waits delayMs before answering', async () => {
    fake.script({ kind: 'text', text: 'late', delayMs: 150 });
    const started = performance.now();
    const result = await generateText({ model: compatibleProvider().chatModel('m'), prompt: 'Hi' });
    expect(result.text).toBe('late');
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });
});

describe('streaming', () => {
  const sentence = 'The quick brown fox jumps over the lazy dog, twice.';

  it('streams text chunks that assemble in order, without usage unless asked', async () => {
    fake.script({ kind: 'text', text: sentence });
    const result = streamText({
      model: compatibleProvider().chatModel('m'),
      prompt: 'Tell me about the fox.',
    });
    const chunks: string[] = [];
    for await (const chunk of result.textStream) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.join('')).toBe(sentence);
    expect(fake.seen[0]?.body?.stream).toBe(true);
    expect(fake.seen[0]?.body?.stream_options).toBeUndefined();
    expect((await result.usage).outputTokens).toBeUndefined();
  });

  it('reports usage at the end when include_usage is set', async () => {
    fake.script({ kind: 'text', text: sentence });
    const result = streamText({
      model: compatibleProvider({ includeUsage: true }).chatModel('m'),
      prompt: 'Tell me about the fox.',
    });
    expect(await result.text).toBe(sentence);
    expect(fake.seen[0]?.body?.stream_options).toEqual({ include_usage: true });
    const usage = await result.usage;
    expect(usage.outputTokens).toBe(Math.ceil(sentence.length / 4));
    expect(usage.inputTokens).toBeGreaterThan(0);
  });

  it('writes the wire format OpenAI documents', async () => {
    fake.script({ kind: 'text', text: sentence });
    const { chunks, done } = await rawStream({ stream_options: { include_usage: true } });
    expect(done).toBe(true);
    expect(
      chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.model === 'gpt-4o'),
    ).toBe(true);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '', refusal: null });
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toMatchObject({ completion_tokens: Math.ceil(sentence.length / 4) });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    expect(chunks.at(-2)?.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe(sentence);
  });

  it('streams tool calls as deltas: id and name first, the arguments in pieces', async () => {
    fake.script({
      kind: 'toolCalls',
      calls: [{ name: 'findImages', arguments: { query: 'spring flowers', limit: 3 } }],
    });
    const { chunks } = await rawStream({});
    const deltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(deltas[0]).toMatchObject({
      index: 0,
      id: expect.stringMatching(/^call_/),
      type: 'function',
      function: { name: 'findImages', arguments: '' },
    });
    expect(deltas.length).toBeGreaterThan(2);
    expect(
      deltas.slice(1).every((delta) => delta.id === undefined && delta.function.name === undefined),
    ).toBe(true);
    const argumentsText = deltas.map((delta) => delta.function.arguments).join('');
    expect(JSON.parse(argumentsText)).toEqual({ query: 'spring flowers', limit: 3 });
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
    // Without include_usage, chunks carry no usage field at all.
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false);
  });
});

describe('tool calls', () => {
  const brandTools = (execute: (input: { brand: string }) => Promise<string>) => ({
    lookupBrandColor: tool({
      description: 'The primary colour of a brand.',
      inputSchema: z.object({ brand: z.string() }),
      execute,
    }),
  });

  it('round-trips a tool call with generateText', async () => {
    fake.script(
      { kind: 'toolCalls', calls: [{ name: 'lookupBrandColor', arguments: { brand: 'Acme' } }] },
      { kind: 'text', text: 'Acme uses #ff6600.' },
    );
    const execute = vi.fn(async (_input: { brand: string }) => '#ff6600');
    const result = await generateText({
      model: compatibleProvider().chatModel('m'),
      tools: brandTools(execute),
      stopWhen: stepCountIs(3),
      prompt: 'Which colour does Acme use?',
    });
    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute.mock.calls[0]?.[0]).toEqual({ brand: 'Acme' });
    expect(result.text).toBe('Acme uses #ff6600.');
    expect(result.steps[0]?.finishReason).toBe('tool-calls');
    expect(fake.seen[0]?.body?.tools?.[0]?.function.name).toBe('lookupBrandColor');
    // The second request carries the call and its result, matched by the call's id.
    const messages = fake.seen[1]?.body?.messages ?? [];
    const callId = messages.find((message) => message.role === 'assistant')?.tool_calls?.[0]?.id;
    expect(callId).toMatch(/^call_/);
    expect(messages.find((message) => message.role === 'tool')).toMatchObject({
      tool_call_id: callId,
      content: expect.stringContaining('#ff6600'),
    });
  });

  it('round-trips a streamed tool call with streamText', async () => {
    fake.script(
      { kind: 'toolCalls', calls: [{ name: 'lookupBrandColor', arguments: { brand: 'Globex' } }] },
      { kind: 'text', text: 'Globex uses teal.' },
    );
    const execute = vi.fn(async (_input: { brand: string }) => 'teal');
    const result = streamText({
      model: openAiProvider().chat('gpt-4o'),
      tools: brandTools(execute),
      stopWhen: stepCountIs(3),
      prompt: 'Which colour does Globex use?',
    });
    expect(await result.text).toBe('Globex uses teal.');
    expect(execute.mock.calls[0]?.[0]).toEqual({ brand: 'Globex' });
    expect(fake.seen).toHaveLength(2);
    expect(fake.seen.every((request) => request.body?.stream === true)).toBe(true);
  });
});

describe('errors', () => {
  const expectApiCallError = async (promise: Promise<unknown>): Promise<APICallError> => {
    const error = await promise.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(APICallError.isInstance(error)).toBe(true);
    return error as APICallError;
  };

  it('refuses a wrong key with 401 invalid_api_key', async () => {
    const error = await expectApiCallError(
      generateText({
        model: openAiProvider('sk-wrong-key-9999').chat('gpt-4o'),
        prompt: 'Hi',
        maxRetries: 0,
      }),
    );
    expect(error.statusCode).toBe(401);
    expect(error.message).toMatch(/^Incorrect API key provided: sk-\*\*\*9999/);
    expect(JSON.parse(error.responseBody ?? '{}')).toEqual({
      error: { message: error.message, type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
    });
  });

  it('refuses a request without a key', async () => {
    const response = await fetch(`${fake.baseUrl}/models`);
    expect(response.status).toBe(401);
    expect(((await response.json()) as WireError).error.message).toMatch(/^You didn't provide an API key/);
  });

  it('answers a scripted 429 with retry-after, which the SDK reports', async () => {
    fake.script({ kind: 'error', status: 429 });
    const error = await expectApiCallError(
      generateText({ model: compatibleProvider().chatModel('m'), prompt: 'Hi', maxRetries: 0 }),
    );
    expect(error.statusCode).toBe(429);
    expect(error.isRetryable).toBe(true);
    expect(error.responseHeaders?.['retry-after']).toBe('1');
    expect(JSON.parse(error.responseBody ?? '{}').error.code).toBe('rate_limit_exceeded');
  });

  it('lets the SDK retry after a 429 and use the next reply', async () => {
    fake.script({ kind: 'error', status: 429, retryAfterSeconds: 0 }, { kind: 'text', text: 'Second try.' });
    const result = await generateText({
      model: openAiProvider().chat('gpt-4o'),
      prompt: 'Hi',
      maxRetries: 1,
    });
    expect(result.text).toBe('Second try.');
    expect(fake.seen).toHaveLength(2);
  });

  it.each([500, 503])('answers a scripted %i in the OpenAI error format', async (status) => {
    fake.script({ kind: 'error', status, message: 'Upstream trouble' });
    const error = await expectApiCallError(
      generateText({ model: openAiProvider().chat('gpt-4o'), prompt: 'Hi', maxRetries: 0 }),
    );
    expect(error.statusCode).toBe(status);
    expect(error.message).toBe('Upstream trouble');
    expect(JSON.parse(error.responseBody ?? '{}').error).toMatchObject({ type: 'server_error', param: null });
  });

  it('answers errors to streamed requests before any event', async () => {
    fake.script({ kind: 'error', status: 503 });
    const errors: unknown[] = [];
    const result = streamText({
      model: openAiProvider().chat('gpt-4o'),
      prompt: 'Hi',
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await result.consumeStream();
    expect(errors).toHaveLength(1);
    expect(APICallError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as APICallError).statusCode).toBe(503);
  });

  it('answers 400 when a computed reply does not fit the endpoint, which the SDK does not retry', async () => {
    fake.script(() => ({ kind: 'image' }));
    const error = await expectApiCallError(
      generateText({ model: openAiProvider().chat('gpt-4o'), prompt: 'Hi' }),
    );
    expect(error.statusCode).toBe(400);
    expect(error.message).toMatch(/^fake-openai: an image reply was computed for a chat completion/);
    expect(fake.seen).toHaveLength(1);
  });

  it('answers an unknown path like OpenAI', async () => {
    const response = await fetch(`${fake.baseUrl}/completions/nope`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as WireError).error.message).toBe(
      'Invalid URL (POST /v1/completions/nope)',
    );
  });
});

describe('images and models', () => {
  it('generates PNGs of the requested size through the SDK', async () => {
    const { images } = await generateImage({
      model: openAiProvider().image('gpt-image-1'),
      prompt: 'A spring bouquet',
      n: 2,
      size: '256x128',
    });
    expect(images).toHaveLength(2);
    for (const image of images) {
      expect([...image.uint8Array.slice(0, 8)]).toEqual(pngSignature);
      const metadata = await sharp(image.uint8Array).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', 256, 128]);
    }
    expect(fake.seen[0]?.path).toBe('/v1/images/generations');
    expect(fake.seen[0]?.body).toMatchObject({ model: 'gpt-image-1', prompt: 'A spring bouquet', n: 2 });
  });

  it('gives image replies to image requests and chat replies to chat requests', async () => {
    fake.script(
      { kind: 'image', revisedPrompt: 'A bouquet of tulips' },
      { kind: 'text', text: 'Chat first.' },
    );
    const chat = await generateText({ model: compatibleProvider().chatModel('m'), prompt: 'Hi' });
    expect(chat.text).toBe('Chat first.');
    const scriptedImage = await generateImage({
      model: openAiProvider().image('dall-e-3'),
      prompt: 'Flowers',
    });
    expect(scriptedImage.providerMetadata.openai?.images).toEqual([
      expect.objectContaining({ revisedPrompt: 'A bouquet of tulips' }),
    ]);
    // The queue is empty again: the OpenAI-compatible image model gets the unscripted PNG.
    const unscripted = await generateImage({
      model: compatibleProvider().imageModel('img'),
      prompt: 'Tulips',
    });
    expect([...(unscripted.images[0]?.uint8Array.slice(0, 8) ?? [])]).toEqual(pngSignature);
    expect(fake.seen.map((request) => request.path)).toEqual([
      '/v1/chat/completions',
      '/v1/images/generations',
      '/v1/images/generations',
    ]);
  });

  it('lists models and answers one by id', async () => {
    const headers = { authorization: `Bearer ${apiKey}` };
    const list = (await (await fetch(`${fake.baseUrl}/models`, { headers })).json()) as {
      object: string;
      data: { id: string; object: string }[];
    };
    expect(list.object).toBe('list');
    expect(list.data).toContainEqual(expect.objectContaining({ id: 'gpt-4o', object: 'model' }));
    const known = await fetch(`${fake.baseUrl}/models/gpt-image-1`, { headers });
    expect(((await known.json()) as { id: string }).id).toBe('gpt-image-1');
    const unknown = await fetch(`${fake.baseUrl}/models/gpt-0`, { headers });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as WireError).error.code).toBe('model_not_found');
  });
});

describe('control endpoints', () => {
  it('scripts, shows what was seen, and resets over HTTP', async () => {
    const scripted = await fetch(`${fake.url}/__fake/script`, {
      method: 'POST',
      body: JSON.stringify([
        { kind: 'json', value: { headline: 'From e2e', bullets: [], tone: 'formal' } },
        { kind: 'error', status: 500 },
      ]),
    });
    expect(await scripted.json()).toEqual({ queued: 2 });
    const result = await generateText({
      model: compatibleProvider().chatModel('m'),
      output: Output.object({ schema: headlineSchema }),
      prompt: 'Headline?',
    });
    expect(result.output.headline).toBe('From e2e');

    const seen = (await (await fetch(`${fake.url}/__fake/seen`)).json()) as FakeOpenAiRequest[];
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', body: { model: 'm' } });

    await fetch(`${fake.url}/__fake/reset`, { method: 'POST' });
    expect(fake.seen).toHaveLength(0);
    // The queued 500 is gone: the next answer is the unscripted default.
    const after = await generateText({
      model: compatibleProvider().chatModel('m'),
      prompt: 'Hi',
      maxRetries: 0,
    });
    expect(after.text).toBe(defaultFakeReplyText);
  });

  it('refuses replies it cannot take', async () => {
    const refused = await fetch(`${fake.url}/__fake/script`, {
      method: 'POST',
      body: JSON.stringify([{ kind: 'toolCalls', calls: [{ name: 'x' }] }]),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toMatch(/arguments/);
    const unscripted = await generateText({ model: compatibleProvider().chatModel('m'), prompt: 'Hi' });
    expect(unscripted.text).toBe(defaultFakeReplyText);
  });
});

describe('sampleFromJsonSchema', () => {
  it('samples every zod construct the product uses, valid for zod again', () => {
    interface Block {
      label: string;
      children: Block[];
    }
    const block: z.ZodType<Block> = z.lazy(() => z.object({ label: z.string(), children: z.array(block) }));
    const schema = z.object({
      count: z.int(),
      ratio: z.number().gt(0).lt(1),
      even: z.number().int().multipleOf(2).min(7).max(12),
      email: z.email(),
      link: z.url(),
      when: z.iso.datetime(),
      day: z.iso.date(),
      id: z.uuid(),
      color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
      code: z.string().regex(/^[A-Z]{3}-\d{4}(?:-[a-z]+)?$/),
      short: z.string().max(4),
      long: z.string().min(40).max(45),
      kind: z.enum(['hero', 'footer']),
      fixed: z.literal('v1'),
      maybe: z.string().nullable(),
      optional: z.string().optional(),
      either: z.union([z.object({ url: z.url() }), z.number()]),
      variant: z.discriminatedUnion('type', [
        z.object({ type: z.literal('a'), a: z.string() }),
        z.object({ type: z.literal('b'), b: z.number() }),
      ]),
      pair: z.tuple([z.string(), z.boolean()]),
      tags: z.array(z.string()).min(3),
      none: z.array(z.string()).max(0),
      tree: block,
      settings: z.record(z.string(), z.number()),
    });
    for (const target of ['draft-2020-12', 'draft-7'] as const) {
      const value = sampleFromJsonSchema(z.toJSONSchema(schema, { target }) as JsonSchema);
      const parsed = schema.safeParse(value);
      expect(parsed.error).toBeUndefined();
      expect(value).toMatchObject({
        count: 1,
        ratio: 0.5,
        even: 8,
        color: '#000000',
        code: 'AAA-0000',
        short: 'Samp',
        kind: 'hero',
        fixed: 'v1',
        maybe: 'Sample maybe',
        optional: 'Sample optional',
        tags: ['Sample tags', 'Sample tags 2', 'Sample tags 3'],
        none: [],
      });
    }
  });

  it('follows $ref into definitions and $defs and honours the keywords', () => {
    const schema: JsonSchema = {
      type: 'object',
      required: ['hero', 'cta', 'items'],
      properties: {
        hero: { $ref: '#/definitions/hero' },
        cta: { $ref: '#/$defs/cta' },
        items: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 2 },
        empty: { type: 'array', items: { type: 'string' } },
        footer: {
          allOf: [
            { $ref: '#/definitions/hero' },
            { required: ['year'], properties: { year: { type: 'integer', minimum: 2000 } } },
          ],
        },
      },
      definitions: {
        hero: {
          type: 'object',
          required: ['imageUrl', 'headlineText'],
          properties: {
            imageUrl: { type: 'string', format: 'uri' },
            headlineText: { type: 'string', minLength: 30 },
          },
        },
      },
      $defs: {
        cta: { anyOf: [{ type: 'object', properties: { label: { const: 'Buy now' } } }, { type: 'null' }] },
      },
    };
    expect(sampleFromJsonSchema(schema)).toEqual({
      hero: { imageUrl: 'https://example.com/image-url', headlineText: 'Sample headline text sample text' },
      cta: { label: 'Buy now' },
      items: ['a', 'b'],
      empty: ['Sample empty'],
      footer: {
        imageUrl: 'https://example.com/image-url',
        headlineText: 'Sample headline text sample text',
        year: 2000,
      },
    });
  });

  it('is deterministic and ends recursion, or says the schema has no finite value', () => {
    const recursive: JsonSchema = {
      $ref: '#/$defs/node',
      $defs: {
        node: {
          type: 'object',
          required: ['next'],
          properties: { next: { anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }] } },
        },
      },
    };
    const value = sampleFromJsonSchema(recursive);
    expect(sampleFromJsonSchema(recursive)).toEqual(value);
    expect(JSON.stringify(value)).toMatch(/"next":null/);
    const endless: JsonSchema = {
      $ref: '#/$defs/loop',
      $defs: { loop: { type: 'object', required: ['self'], properties: { self: { $ref: '#/$defs/loop' } } } },
    };
    expect(() => sampleFromJsonSchema(endless)).toThrow(/recurses without end/);
    expect(() => sampleFromJsonSchema({ $ref: '#/$defs/missing' })).toThrow(/cannot resolve/);
  });
});
