import type { IncomingHttpHeaders } from 'node:http';
import sharp from 'sharp';
import { z } from 'zod';
import { bodyJson, type FakeAnswer, json, type SeenRequest, startFakeServer } from './fake-http.ts';

/**
 * A fake OpenAI API, faithful to the wire format of chat completions (plain and streamed, tool
 * calls, structured outputs), image generations and the model list, so the product's AI code runs
 * unchanged against it with only another base URL. Tests script the next replies with `script`
 * (another process does it through POST /__fake/script); unscripted requests are answered from the
 * request itself (a value generated from the `json_schema`, a fixed sentence, a PNG) so end-to-end
 * tests and benchmarks run without scripting.
 */

/** The JSON Schema keywords structured outputs use (OpenAI's strict subset, zod's toJSONSchema). */
export interface JsonSchema {
  type?: JsonSchemaType | JsonSchemaType[];
  properties?: Record<string, JsonSchema | boolean>;
  required?: string[];
  items?: JsonSchema | boolean | (JsonSchema | boolean)[];
  prefixItems?: (JsonSchema | boolean)[];
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: (JsonSchema | boolean)[];
  oneOf?: (JsonSchema | boolean)[];
  allOf?: (JsonSchema | boolean)[];
  $ref?: string;
  $defs?: Record<string, JsonSchema | boolean>;
  definitions?: Record<string, JsonSchema | boolean>;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  [keyword: string]: unknown;
}

type JsonSchemaType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

/** A chat message as POST /v1/chat/completions takes it (the fields the fake reads are typed). */
export interface OpenAiChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content?: string | { type: string; text?: string }[] | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  [field: string]: unknown;
}

/** The chat completions `response_format`. */
export interface ChatResponseFormat {
  type: 'text' | 'json_object' | 'json_schema';
  json_schema?: { name: string; description?: string; schema?: JsonSchema; strict?: boolean | null };
}

/** A request body of the chat completions or the image generations endpoint. */
export interface OpenAiRequestBody {
  model?: string;
  messages?: OpenAiChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean } | null;
  /** An object for chat completions; `url` or `b64_json` for image generations. */
  response_format?: ChatResponseFormat | 'url' | 'b64_json';
  tools?: {
    type: 'function';
    function: { name: string; description?: string; parameters?: JsonSchema; strict?: boolean };
  }[];
  tool_choice?: unknown;
  prompt?: string;
  n?: number;
  size?: string;
  [field: string]: unknown;
}

/** A request the fake answered (control requests under /__fake are not recorded). */
export interface FakeOpenAiRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; undefined for a GET or a body that is not a JSON object. */
  body: OpenAiRequestBody | undefined;
}

interface ReplyTiming {
  /** Answers this late: a slow model, for timeouts and progress indicators. */
  delayMs?: number;
}

/** The model's structured output: the message content is `JSON.stringify(value)`. */
export interface JsonContentReply extends ReplyTiming {
  kind: 'json';
  value: unknown;
}

/** Plain message content: a prose answer, or JSON that is broken on purpose. */
export interface TextContentReply extends ReplyTiming {
  kind: 'text';
  text: string;
}

export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** The model calls tools (`finish_reason: 'tool_calls'`); ids are `call_…`. */
export interface ToolCallsReply extends ReplyTiming {
  kind: 'toolCalls';
  calls: ScriptedToolCall[];
}

/**
 * An error in OpenAI's body format `{error: {message, type, param, code}}`. Message, type and
 * code default to what OpenAI answers for the status; a 429 carries `retry-after` (1 s unless
 * `retryAfterSeconds` says otherwise), other statuses only when `retryAfterSeconds` is given.
 */
export interface ErrorReply extends ReplyTiming {
  kind: 'error';
  status: number;
  message?: string;
  type?: string;
  code?: string | null;
  param?: string | null;
  retryAfterSeconds?: number;
}

/** Generated images (PNGs of the requested size, `n` of them), optionally with a revised prompt. */
export interface ImageReply extends ReplyTiming {
  kind: 'image';
  revisedPrompt?: string;
}

export type FakeOpenAiReply = JsonContentReply | TextContentReply | ToolCallsReply | ErrorReply | ImageReply;

/** A reply computed from the request, e.g. a translation that echoes the text it was given. */
export type ComputedReply = (
  body: OpenAiRequestBody,
  request: FakeOpenAiRequest,
) => FakeOpenAiReply | Promise<FakeOpenAiReply>;

/**
 * One entry of the script. Each request takes the first queued entry that fits its endpoint:
 * json, text and toolCalls replies are for chat completions, image replies for image
 * generations; errors and computed replies go to whichever request comes first.
 */
export type ScriptedReply = FakeOpenAiReply | ComputedReply;

export interface FakeOpenAi {
  /** The server's origin; the control endpoints live under `<url>/__fake`. */
  url: string;
  /** What the provider is configured with as its base URL: `<url>/v1`. */
  baseUrl: string;
  /** The API requests in the order they came (kept in place by `reset`). */
  seen: FakeOpenAiRequest[];
  /** Queues replies for the next requests. */
  script(...replies: ScriptedReply[]): void;
  /** Forgets the queued replies and the recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

/** What an unscripted chat completion answers when no structured output is asked for. */
export const defaultFakeReplyText = 'This is a reply from the fake model.';

/** The models GET /v1/models lists. */
const listedModels = [
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4o',
  'gpt-4o-mini',
  'gpt-5',
  'gpt-5-mini',
  'gpt-image-1',
  'dall-e-3',
  'text-embedding-3-small',
];

const errorDefaults: Record<number, { message: string; type: string; code: string | null }> = {
  400: { message: 'Invalid request.', type: 'invalid_request_error', code: null },
  401: {
    message:
      'Incorrect API key provided: sk-fak***-key. You can find your API key at https://platform.openai.com/account/api-keys.',
    type: 'invalid_request_error',
    code: 'invalid_api_key',
  },
  429: {
    message:
      'Rate limit reached for requests. Please try again in 1s. Visit https://platform.openai.com/account/rate-limits to learn more.',
    type: 'requests',
    code: 'rate_limit_exceeded',
  },
  500: {
    message: 'The server had an error while processing your request. Sorry about that!',
    type: 'server_error',
    code: null,
  },
  503: { message: 'The server is overloaded or not ready yet.', type: 'server_error', code: null },
};

/** Validates replies scripted over HTTP (functions cannot travel, so they are not accepted). */
const scriptedReplyOverHttp: z.ZodType<FakeOpenAiReply> = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('json'),
    value: z.unknown().refine((value) => value !== undefined, 'value is required'),
    delayMs: z.number().nonnegative().optional(),
  }),
  z.object({ kind: z.literal('text'), text: z.string(), delayMs: z.number().nonnegative().optional() }),
  z.object({
    kind: z.literal('toolCalls'),
    calls: z
      .array(z.object({ name: z.string().min(1), arguments: z.record(z.string(), z.unknown()) }))
      .min(1),
    delayMs: z.number().nonnegative().optional(),
  }),
  z.object({
    kind: z.literal('error'),
    status: z.int().min(400).max(599),
    message: z.string().optional(),
    type: z.string().optional(),
    code: z.string().nullable().optional(),
    param: z.string().nullable().optional(),
    retryAfterSeconds: z.number().nonnegative().optional(),
    delayMs: z.number().nonnegative().optional(),
  }),
  z.object({
    kind: z.literal('image'),
    revisedPrompt: z.string().optional(),
    delayMs: z.number().nonnegative().optional(),
  }),
]);

type Endpoint = 'chat' | 'images';

const endpointOfKind: Record<FakeOpenAiReply['kind'], Endpoint | 'any'> = {
  json: 'chat',
  text: 'chat',
  toolCalls: 'chat',
  image: 'images',
  error: 'any',
};

export async function startFakeOpenAi(options: { port?: number; apiKey?: string } = {}): Promise<FakeOpenAi> {
  const queue: ScriptedReply[] = [];
  const seen: FakeOpenAiRequest[] = [];
  let nextId = 1;
  // Counters, not random ids: two runs of a test see the same ids.
  const newId = (prefix: string, length: number) => `${prefix}${String(nextId++).padStart(length, '0')}`;

  const takeScripted = (endpoint: Endpoint): ScriptedReply | undefined => {
    const index = queue.findIndex(
      (entry) => typeof entry === 'function' || [endpoint, 'any'].includes(endpointOfKind[entry.kind]),
    );
    return index < 0 ? undefined : queue.splice(index, 1)[0];
  };

  const reply = async (
    endpoint: Endpoint,
    request: FakeOpenAiRequest,
    body: OpenAiRequestBody,
    unscripted: () => FakeOpenAiReply,
  ): Promise<FakeOpenAiReply> => {
    const entry = takeScripted(endpoint);
    const chosen =
      entry === undefined ? unscripted() : typeof entry === 'function' ? await entry(body, request) : entry;
    if (chosen.delayMs) await new Promise((resolve) => setTimeout(resolve, chosen.delayMs));
    return chosen;
  };

  const chatCompletion = async (request: FakeOpenAiRequest, body: OpenAiRequestBody): Promise<FakeAnswer> => {
    if (typeof body.model !== 'string' || body.model === '')
      return openAiError(400, { message: 'you must provide a model parameter' });
    if (!Array.isArray(body.messages))
      return openAiError(400, {
        message: "Missing required parameter: 'messages'.",
        param: 'messages',
        code: 'missing_required_parameter',
      });
    let chosen: FakeOpenAiReply;
    try {
      chosen = await reply('chat', request, body, () => unscriptedChatReply(body));
    } catch (error) {
      return fakeMisuse(`cannot answer this chat completion: ${(error as Error).message}`);
    }
    if (chosen.kind === 'error') return scriptedError(chosen);
    if (chosen.kind === 'image') return fakeMisuse('an image reply was computed for a chat completion');
    const completion: Completion =
      chosen.kind === 'toolCalls'
        ? {
            toolCalls: chosen.calls.map((call) => ({
              id: newId('call_fake', 20),
              name: call.name,
              arguments: JSON.stringify(call.arguments),
            })),
          }
        : { content: chosen.kind === 'json' ? JSON.stringify(chosen.value) : chosen.text };
    const envelope = {
      id: newId('chatcmpl-fake', 20),
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      service_tier: 'default',
      system_fingerprint: 'fp_fake0000',
    };
    const usage = tokenUsage(body, completion);
    if (body.stream === true)
      return {
        status: 200,
        headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
        stream: completionChunks(envelope, completion, usage, body.stream_options?.include_usage === true),
      };
    return json(200, {
      ...envelope,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message:
            'toolCalls' in completion
              ? {
                  role: 'assistant',
                  content: null,
                  tool_calls: completion.toolCalls.map((call) => ({
                    id: call.id,
                    type: 'function',
                    function: { name: call.name, arguments: call.arguments },
                  })),
                  refusal: null,
                  annotations: [],
                }
              : { role: 'assistant', content: completion.content, refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: 'toolCalls' in completion ? 'tool_calls' : 'stop',
        },
      ],
      usage,
    });
  };

  const imageGeneration = async (
    request: FakeOpenAiRequest,
    body: OpenAiRequestBody,
  ): Promise<FakeAnswer> => {
    if (typeof body.prompt !== 'string' || body.prompt === '')
      return openAiError(400, {
        message: "Missing required parameter: 'prompt'.",
        param: 'prompt',
        code: 'missing_required_parameter',
      });
    const count = body.n ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > 10)
      return openAiError(400, {
        message: `Invalid 'n': ${count}. Expected an integer from 1 to 10.`,
        param: 'n',
        code: 'invalid_value',
      });
    // Serving image URLs would need the fake to host files; the SDK asks for b64_json anyway.
    if (body.response_format === 'url')
      return fakeMisuse("the fake answers image generations only with response_format 'b64_json'");
    const size = /^(\d{1,4})x(\d{1,4})$/.exec(body.size ?? '');
    const width = Number(size?.[1] ?? 1024);
    const height = Number(size?.[2] ?? 1024);
    let chosen: FakeOpenAiReply;
    try {
      chosen = await reply('images', request, body, () => ({ kind: 'image' }));
    } catch (error) {
      return fakeMisuse(`cannot answer this image generation: ${(error as Error).message}`);
    }
    if (chosen.kind === 'error') return scriptedError(chosen);
    if (chosen.kind !== 'image')
      return fakeMisuse(`a ${chosen.kind} reply was computed for an image generation`);
    const revisedPrompt = chosen.revisedPrompt;
    const pngs = await Promise.all(
      Array.from({ length: count }, (_, index) => samplePng(width, height, index)),
    );
    const isGptImage = (body.model ?? '').startsWith('gpt-image');
    const promptTokens = estimateTokens(body.prompt);
    return json(200, {
      created: Math.floor(Date.now() / 1000),
      data: pngs.map((png) => ({
        b64_json: png.toString('base64'),
        ...(revisedPrompt === undefined ? {} : { revised_prompt: revisedPrompt }),
      })),
      // GPT Image models describe their output and report token usage; DALL·E models do not.
      ...(isGptImage
        ? {
            background: 'opaque',
            output_format: 'png',
            quality: 'medium',
            size: `${width}x${height}`,
            usage: {
              input_tokens: promptTokens,
              output_tokens: 272 * count,
              total_tokens: promptTokens + 272 * count,
              input_tokens_details: { text_tokens: promptTokens, image_tokens: 0 },
            },
          }
        : {}),
    });
  };

  const control = (request: SeenRequest): FakeAnswer => {
    if (request.method === 'POST' && request.path === '/__fake/script') {
      let replies: unknown;
      try {
        replies = JSON.parse(request.body);
      } catch {
        return json(400, { error: 'the body must be a JSON array of replies' });
      }
      const parsed = z.array(scriptedReplyOverHttp).safeParse(replies);
      if (!parsed.success) return json(400, { error: z.prettifyError(parsed.error) });
      queue.push(...parsed.data);
      return json(200, { queued: queue.length });
    }
    if (request.method === 'POST' && request.path === '/__fake/reset') {
      reset();
      return json(200, { queued: 0 });
    }
    if (request.method === 'GET' && request.path === '/__fake/seen') return json(200, seen);
    return json(404, { error: `no control endpoint ${request.method} ${request.path}` });
  };

  const handle = async (incoming: SeenRequest): Promise<FakeAnswer> => {
    if (incoming.path.startsWith('/__fake/')) return control(incoming);
    const body = bodyJson(incoming) as OpenAiRequestBody | undefined;
    const request: FakeOpenAiRequest = {
      method: incoming.method,
      path: incoming.path,
      headers: incoming.headers,
      body,
    };
    seen.push(request);
    const answer = await route(request, incoming.body);
    // OpenAI stamps every answer with a request id that support asks for.
    answer.headers = { 'x-request-id': newId('req_fake', 24), ...answer.headers };
    return answer;
  };

  const route = async (request: FakeOpenAiRequest, rawBody: string): Promise<FakeAnswer> => {
    const refusal = options.apiKey === undefined ? undefined : authorizationRefusal(request, options.apiKey);
    if (refusal) return refusal;
    const { method, path, body } = request;
    if (method === 'GET' && path === '/v1/models')
      return json(200, { object: 'list', data: listedModels.map(modelObject) });
    const modelId = /^\/v1\/models\/([^/]+)$/.exec(path)?.[1];
    if (method === 'GET' && modelId !== undefined) {
      const id = decodeURIComponent(modelId);
      return listedModels.includes(id)
        ? json(200, modelObject(id))
        : openAiError(404, {
            message: `The model '${id}' does not exist`,
            param: 'model',
            code: 'model_not_found',
          });
    }
    const isChat = method === 'POST' && path === '/v1/chat/completions';
    const isImages = method === 'POST' && path === '/v1/images/generations';
    if (!isChat && !isImages) return openAiError(404, { message: `Invalid URL (${method} ${path})` });
    if (!body)
      return openAiError(400, {
        message: rawBody.trim()
          ? "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)"
          : 'you must provide a model parameter',
      });
    return isChat ? chatCompletion(request, body) : imageGeneration(request, body);
  };

  const server = await startFakeServer(handle, options.port);
  const reset = () => {
    queue.length = 0;
    seen.length = 0;
    // The shared helper records every request too; forget those so long benchmarks stay small.
    server.seen.length = 0;
  };
  return {
    url: server.url,
    baseUrl: `${server.url}/v1`,
    seen,
    script: (...replies) => {
      queue.push(...replies);
    },
    reset,
    close: server.close,
  };
}

type Completion = { content: string } | { toolCalls: { id: string; name: string; arguments: string }[] };

interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
}

/** Roughly four characters a token, as OpenAI's rule of thumb: deterministic, not exact. */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function tokenUsage(body: OpenAiRequestBody, completion: Completion): TokenUsage {
  // The prompt is what the model reads: the messages, the tool definitions and the output schema.
  const prompt_tokens = estimateTokens(
    JSON.stringify([body.messages, body.tools ?? null, body.response_format ?? null]),
  );
  const completion_tokens = estimateTokens(
    'content' in completion
      ? completion.content
      : completion.toolCalls.map((call) => call.name + call.arguments).join(''),
  );
  return {
    prompt_tokens,
    completion_tokens,
    total_tokens: prompt_tokens + completion_tokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/**
 * The completion as OpenAI streams it: a first delta with the role, the content (or each tool
 * call's arguments) in small pieces, a last empty delta with the finish reason, and with
 * `include_usage` a usage chunk with no choices (every other chunk then carries `usage: null`).
 */
async function* completionChunks(
  envelope: Record<string, unknown>,
  completion: Completion,
  usage: TokenUsage,
  includeUsage: boolean,
): AsyncGenerator<string> {
  const event = (choices: unknown[], chunkUsage?: TokenUsage) =>
    `data: ${JSON.stringify({
      ...envelope,
      object: 'chat.completion.chunk',
      choices,
      ...(includeUsage ? { usage: chunkUsage ?? null } : {}),
    })}\n\n`;
  const delta = (fields: Record<string, unknown>, finishReason: string | null = null) =>
    event([{ index: 0, delta: fields, logprobs: null, finish_reason: finishReason }]);

  if ('content' in completion) {
    yield delta({ role: 'assistant', content: '', refusal: null });
    for (const piece of streamPieces(completion.content)) yield delta({ content: piece });
    yield delta({}, 'stop');
  } else {
    for (const [index, call] of completion.toolCalls.entries()) {
      const opening = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
      yield delta(
        index === 0
          ? { role: 'assistant', content: null, tool_calls: [opening], refusal: null }
          : { tool_calls: [opening] },
      );
      for (const piece of streamPieces(call.arguments))
        yield delta({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
    yield delta({}, 'tool_calls');
  }
  if (includeUsage) yield event([], usage);
  yield 'data: [DONE]\n\n';
}

/** Token-sized pieces: a word with its trailing space, long runs cut every 8 characters. */
function streamPieces(text: string): string[] {
  return text.match(/\S{1,8}\s*|\s+/gu) ?? [];
}

function unscriptedChatReply(body: OpenAiRequestBody): FakeOpenAiReply {
  const format = typeof body.response_format === 'object' ? body.response_format : undefined;
  if (format?.type === 'json_schema')
    return { kind: 'json', value: sampleFromJsonSchema(format.json_schema?.schema ?? {}) };
  // JSON mode promises a JSON object, whatever the prompt asks for.
  if (format?.type === 'json_object') return { kind: 'json', value: { reply: defaultFakeReplyText } };
  return { kind: 'text', text: defaultFakeReplyText };
}

function modelObject(id: string) {
  return {
    id,
    object: 'model',
    created: 1_700_000_000,
    owned_by: id.startsWith('gpt') ? 'openai' : 'system',
  };
}

function openAiError(
  status: number,
  fields: { message?: string; type?: string; code?: string | null; param?: string | null },
  headers: Record<string, string> = {},
): FakeAnswer {
  const defaults = errorDefaults[status] ?? {
    message: `Fake error ${status}.`,
    type: status >= 500 ? 'server_error' : 'invalid_request_error',
    code: null,
  };
  return json(
    status,
    {
      error: {
        message: fields.message ?? defaults.message,
        type: fields.type ?? defaults.type,
        param: fields.param ?? null,
        code: fields.code === undefined ? defaults.code : fields.code,
      },
    },
    headers,
  );
}

function scriptedError(reply: ErrorReply): FakeAnswer {
  const retryAfter = reply.retryAfterSeconds ?? (reply.status === 429 ? 1 : undefined);
  return openAiError(
    reply.status,
    reply,
    retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) },
  );
}

/** A test scripted something the fake cannot answer: a 400, which the SDK does not retry. */
function fakeMisuse(message: string): FakeAnswer {
  return openAiError(400, { message: `fake-openai: ${message}`, type: 'fake_openai_misuse' });
}

function authorizationRefusal(request: FakeOpenAiRequest, apiKey: string): FakeAnswer | undefined {
  const header = request.headers.authorization;
  const presented = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim())?.[1] : undefined;
  if (presented === apiKey) return undefined;
  if (presented === undefined)
    return openAiError(401, {
      message:
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY). You can obtain an API key from https://platform.openai.com/account/api-keys.",
      code: null,
    });
  // OpenAI shows only the ends of the key it refuses.
  const masked = presented.length > 8 ? `${presented.slice(0, 3)}***${presented.slice(-4)}` : '***';
  return openAiError(401, {
    message: `Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    code: 'invalid_api_key',
  });
}

const pngColors = [
  { r: 92, g: 124, b: 250 },
  { r: 250, g: 176, b: 5 },
  { r: 18, g: 184, b: 134 },
  { r: 240, g: 62, b: 62 },
];
const pngCache = new Map<string, Promise<Buffer>>();

/** A solid PNG of the requested size (each of `n` images another colour), encoded once per kind. */
function samplePng(width: number, height: number, index: number): Promise<Buffer> {
  const background = pngColors[index % pngColors.length] ?? { r: 0, g: 0, b: 0 };
  const key = `${width}x${height}/${index % pngColors.length}`;
  let png = pngCache.get(key);
  if (!png) {
    png = sharp({ create: { width, height, channels: 3, background } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    pngCache.set(key, png);
  }
  return png;
}

// ---------------------------------------------------------------------------------------------
// Values from JSON Schemas

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

interface SampleContext {
  root: JsonSchema;
  /** The property the value is for: makes text readable ("Sample headline"). */
  label: string | undefined;
  /** The position in the enclosing array: keeps items distinct ("Sample tag 2"). */
  index: number;
  /** How many `$ref`s deep the value is: recursive schemas stop growing past a few. */
  refDepth: number;
}

/** Past this many `$ref`s, only what the schema requires is produced, so recursion ends. */
const fullRefDepth = 3;
/** A schema still nesting past this many `$ref`s has no finite value (a required cycle). */
const maximumRefDepth = 32;

/**
 * A value that satisfies the schema, with readable text: objects with their properties (optional
 * ones too, until recursion), arrays with `minItems` items (at least one), strings that honour
 * `enum`, `const`, `format` (uri, email, date-time, date, time, uuid…), `minLength`/`maxLength`
 * and simple `pattern`s, numbers inside their bounds, the first branch of `anyOf`/`oneOf`, merged
 * `allOf`, and `$ref`s into `$defs`/`definitions`. Deterministic: the same schema gives the same
 * value.
 */
export function sampleFromJsonSchema(schema: JsonSchema | boolean): JsonValue {
  const root = typeof schema === 'object' ? schema : {};
  return sampleNode(schema, { root, label: undefined, index: 0, refDepth: 0 });
}

function sampleNode(schema: JsonSchema | boolean, context: SampleContext): JsonValue {
  if (schema === false) throw new Error('a `false` schema admits no value');
  if (schema === true) return readableText(context);
  if (context.refDepth > maximumRefDepth) throw new Error('the schema recurses without end');
  if (schema.$ref !== undefined)
    return sampleNode(resolveRef(schema.$ref, context.root), { ...context, refDepth: context.refDepth + 1 });
  if ('const' in schema) return schema.const as JsonValue;
  if (schema.enum && schema.enum.length > 0)
    return schema.enum[context.index % schema.enum.length] as JsonValue;
  if (schema.allOf) return sampleNode(mergeAllOf(schema, schema.allOf, context.root), context);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches && branches.length > 0) {
    const { anyOf: _anyOf, oneOf: _oneOf, ...shared } = schema;
    // Deep in a recursive schema, a branch without a `$ref` (often `null`) ends the recursion.
    const branch =
      (context.refDepth >= fullRefDepth
        ? branches.find((candidate) => typeof candidate === 'object' && candidate.$ref === undefined)
        : undefined) ?? branches[0];
    const chosen = typeof branch === 'object' ? { ...shared, ...branch } : (branch ?? true);
    return sampleNode(chosen, context);
  }
  switch (typeOf(schema)) {
    case 'null':
      return null;
    case 'boolean':
      return context.index % 2 === 0;
    case 'integer':
      return sampleNumber(schema, true, context.index);
    case 'number':
      return sampleNumber(schema, false, context.index);
    case 'array':
      return sampleArray(schema, context);
    case 'object':
      return sampleObject(schema, context);
    default:
      return sampleString(schema, context);
  }
}

function typeOf(schema: JsonSchema): JsonSchemaType {
  if (Array.isArray(schema.type))
    return schema.type.find((type) => type !== 'null') ?? schema.type[0] ?? 'string';
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.items || schema.prefixItems) return 'array';
  return 'string';
}

function resolveRef(ref: string, root: JsonSchema): JsonSchema | boolean {
  if (!ref.startsWith('#')) throw new Error(`only local $refs are supported, not ${ref}`);
  let target: unknown = root;
  for (const segment of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');
    target = target && typeof target === 'object' ? (target as Record<string, unknown>)[key] : undefined;
  }
  if (typeof target !== 'boolean' && (typeof target !== 'object' || target === null))
    throw new Error(`cannot resolve $ref ${ref}`);
  return target as JsonSchema | boolean;
}

function mergeAllOf(schema: JsonSchema, parts: (JsonSchema | boolean)[], root: JsonSchema): JsonSchema {
  const { allOf: _allOf, ...merged } = schema;
  for (const part of parts) {
    let resolved = part;
    while (typeof resolved === 'object' && resolved.$ref !== undefined)
      resolved = resolveRef(resolved.$ref, root);
    if (typeof resolved !== 'object') continue;
    Object.assign(merged, {
      ...resolved,
      properties: { ...merged.properties, ...resolved.properties },
      required: [...(merged.required ?? []), ...(resolved.required ?? [])],
    });
  }
  return merged;
}

function sampleObject(schema: JsonSchema, context: SampleContext): JsonValue {
  const required = new Set(schema.required ?? []);
  const full = context.refDepth < fullRefDepth;
  const value: Record<string, JsonValue> = {};
  for (const [name, propertySchema] of Object.entries(schema.properties ?? {})) {
    if (!full && !required.has(name)) continue;
    value[name] = sampleNode(propertySchema, { ...context, label: name });
  }
  // JSON Schema may require a property it does not describe: any value will do.
  for (const name of required) if (!(name in value)) value[name] = readableText({ ...context, label: name });
  return value;
}

function sampleArray(schema: JsonSchema, context: SampleContext): JsonValue {
  const tuple = schema.prefixItems ?? (Array.isArray(schema.items) ? schema.items : []);
  const rest = Array.isArray(schema.items) ? undefined : schema.items;
  const minItems = schema.minItems ?? 0;
  let count = context.refDepth < fullRefDepth ? Math.max(minItems, 1, tuple.length) : minItems;
  if (schema.maxItems !== undefined) count = Math.min(count, schema.maxItems);
  // Items without a schema of their own: only the tuple, or anything when `items` is absent.
  if (rest === false || (rest === undefined && tuple.length > 0 && schema.prefixItems === undefined))
    count = Math.min(count, tuple.length);
  return Array.from({ length: count }, (_, index) =>
    sampleNode(tuple[index] ?? rest ?? true, { ...context, index }),
  );
}

function sampleNumber(schema: JsonSchema, integer: boolean, index: number): number {
  const lower = Math.max(schema.minimum ?? -Infinity, schema.exclusiveMinimum ?? -Infinity);
  const upper = Math.min(schema.maximum ?? Infinity, schema.exclusiveMaximum ?? Infinity);
  const step = schema.multipleOf ?? (integer ? 1 : undefined);
  const fits = (value: number) =>
    Number.isFinite(value) &&
    (value > lower || (value === lower && schema.exclusiveMinimum !== lower)) &&
    (value < upper || (value === upper && schema.exclusiveMaximum !== upper)) &&
    (step === undefined || Math.abs(value / step - Math.round(value / step)) < 1e-9);
  // A small readable number when the bounds allow one, else the nearest to a bound.
  const candidates = [index + 1, index];
  if (step !== undefined)
    candidates.push(
      Math.ceil(lower / step) * step,
      (Math.ceil(lower / step) + 1) * step,
      Math.floor(upper / step) * step,
      (Math.floor(upper / step) - 1) * step,
    );
  else candidates.push(lower, lower + 1, upper, upper - 1, (lower + upper) / 2);
  return candidates.find(fits) ?? index + 1;
}

function sampleString(schema: JsonSchema, context: SampleContext): string {
  const formatted = schema.format === undefined ? undefined : sampleFormat(schema.format, context);
  const text = formatted ?? fitLength(readableText(context), schema.minLength, schema.maxLength);
  if (schema.pattern === undefined) return text;
  const flags = regexFlags(schema.pattern);
  if (flags === undefined || new RegExp(schema.pattern, flags).test(text)) return text;
  return sampleFromPattern(schema.pattern, flags) ?? text;
}

function labelWords(context: SampleContext): string[] {
  const words = (context.label ?? '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.length > 0 ? words : ['text'];
}

function readableText(context: SampleContext): string {
  return `Sample ${labelWords(context).join(' ')}${context.index > 0 ? ` ${context.index + 1}` : ''}`;
}

function sampleFormat(format: string, context: SampleContext): string | undefined {
  const suffix = context.index > 0 ? String(context.index + 1) : '';
  switch (format) {
    case 'uri':
    case 'url':
    case 'iri':
      return `https://example.com/${context.label ? labelWords(context).join('-') : 'sample'}${suffix && `-${suffix}`}`;
    case 'email':
    case 'idn-email':
      return `sample${suffix}@example.com`;
    case 'date-time':
      return '2024-01-01T00:00:00Z';
    case 'date':
      return '2024-01-01';
    case 'time':
      return '12:00:00';
    case 'uuid':
      return `00000000-0000-4000-8000-${String(context.index + 1).padStart(12, '0')}`;
    case 'hostname':
      return 'example.com';
    case 'ipv4':
      return '192.0.2.1';
    case 'ipv6':
      return '2001:db8::1';
    default:
      return undefined;
  }
}

function fitLength(text: string, minLength = 0, maxLength = Infinity): string {
  let fitted = text;
  while (fitted.length < minLength) fitted += ' sample text';
  if (fitted.length <= maxLength) return fitted;
  const cut = fitted.slice(0, maxLength);
  // Prefer not to end on a space, unless that makes the text too short.
  return cut.trimEnd().length >= minLength ? cut.trimEnd() : cut;
}

/** JSON Schema patterns are ECMA-262 regular expressions; most also compile in unicode mode. */
function regexFlags(pattern: string): 'u' | '' | undefined {
  for (const flags of ['u', ''] as const) {
    try {
      new RegExp(pattern, flags);
      return flags;
    } catch {
      // Try the next mode.
    }
  }
  return undefined;
}

/** Characters tried, in order, for a class or an escape: readable ones first. */
const candidateCharacters = [
  ...'aA0 -_.',
  ...Array.from({ length: 0x7f - 0x21 }, (_, offset) => String.fromCharCode(0x21 + offset)),
  '\n',
  '\t',
  'é',
];

class UnsupportedPattern extends Error {}

/**
 * A string matching a simple regular expression: literals, escapes, character classes, groups,
 * alternation (the first branch) and quantifiers (the fewest repetitions). Undefined for what it
 * cannot honour (backreferences, lookarounds), and checked by running the pattern on the result.
 */
function sampleFromPattern(pattern: string, flags: 'u' | ''): string | undefined {
  let position = 0;
  const firstMatching = (source: string, preferred: string[] = []) => {
    const single = new RegExp(`^(?:${source})$`, flags);
    const found = [...preferred, ...candidateCharacters].find((character) => single.test(character));
    if (found === undefined) throw new UnsupportedPattern();
    return found;
  };

  const alternation = (): string => {
    const first = sequence();
    while (pattern[position] === '|') {
      position++;
      sequence(); // Parsed to move past it; the first branch is the answer.
    }
    return first;
  };

  const sequence = (): string => {
    let text = '';
    while (position < pattern.length && pattern[position] !== '|' && pattern[position] !== ')') {
      const piece = atom();
      text += piece.repeat(repetitions());
    }
    return text;
  };

  const atom = (): string => {
    const start = position;
    const character = pattern[position++];
    switch (character) {
      case '^':
      case '$':
        return '';
      case '.':
        return 'a';
      case '(': {
        if (pattern.startsWith('?:', position)) position += 2;
        else if (pattern.startsWith('?<', position) && !/^\?<[=!]/.test(pattern.slice(position)))
          position = pattern.indexOf('>', position) + 1;
        else if (pattern[position] === '?') throw new UnsupportedPattern();
        const inner = alternation();
        if (pattern[position++] !== ')') throw new UnsupportedPattern();
        return inner;
      }
      case '[': {
        if (pattern[position] === '^') position++;
        if (pattern[position] === ']') position++;
        while (position < pattern.length && pattern[position] !== ']')
          position += pattern[position] === '\\' ? 2 : 1;
        position++;
        const source = pattern.slice(start, position);
        // The class's own first character reads best: `[0-9a-f]` gives 0.
        const first = pattern[start + 1];
        return firstMatching(source, first && !'^\\['.includes(first) ? [first] : []);
      }
      case '\\': {
        const escaped = pattern[position++] ?? '';
        if (/[1-9k]/.test(escaped)) throw new UnsupportedPattern();
        if (escaped === 'b' || escaped === 'B') return '';
        if (escaped === 'u' && pattern[position] === '{') position = pattern.indexOf('}', position) + 1;
        else if (escaped === 'u') position += 4;
        else if (escaped === 'x') position += 2;
        else if (escaped === 'c') position += 1;
        else if ((escaped === 'p' || escaped === 'P') && pattern[position] === '{')
          position = pattern.indexOf('}', position) + 1;
        return firstMatching(pattern.slice(start, position), [escaped]);
      }
      default:
        return character ?? '';
    }
  };

  const repetitions = (): number => {
    const quantifier = pattern[position];
    let count = 1;
    if (quantifier === '?' || quantifier === '*') count = 0;
    else if (quantifier === '{') {
      const bounds = /^\{(\d+)(?:,\d*)?\}/.exec(pattern.slice(position));
      if (!bounds) return 1; // A literal brace.
      count = Number(bounds[1]);
      position += bounds[0].length - 1;
    } else if (quantifier !== '+') return 1;
    position++;
    if (pattern[position] === '?') position++; // Lazy: the same fewest repetitions.
    return count;
  };

  try {
    const text = alternation();
    return position >= pattern.length && new RegExp(pattern, flags).test(text) ? text : undefined;
  } catch (error) {
    if (error instanceof UnsupportedPattern || error instanceof SyntaxError) return undefined;
    throw error;
  }
}
