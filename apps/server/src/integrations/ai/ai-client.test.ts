import { APICallError, RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { describeProviderFailure, providerFailureOf } from './ai-client.ts';

const connection = { model: 'gpt-4.1-mini', baseUrl: 'https://llm.example/v1' };

function refusal(statusCode: number, headers: Record<string, string> = {}, body?: string): APICallError {
  return new APICallError({
    message: 'provider said no',
    url: 'https://llm.example/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    responseBody:
      body ??
      JSON.stringify({
        error: {
          message:
            'Rate limit reached for requests. Please try again in 1s. Visit https://platform.openai.com/account/rate-limits to learn more.',
        },
      }),
  });
}

describe('a provider failure in our own words', () => {
  it('says a rate limit in one sentence, with the wait the provider asked for and none of its text', () => {
    expect(describeProviderFailure(refusal(429, { 'retry-after': '20' }), connection)).toBe(
      'The AI provider is limiting requests (HTTP 429); try again in 20 seconds.',
    );
    expect(describeProviderFailure(refusal(429, { 'retry-after-ms': '1500' }), connection)).toBe(
      'The AI provider is limiting requests (HTTP 429); try again in 2 seconds.',
    );
    expect(describeProviderFailure(refusal(429), connection)).toBe(
      'The AI provider is limiting requests (HTTP 429); try again in a minute.',
    );
  });

  it('reads the last attempt of a retried call, and a Retry-After given as a date', () => {
    const inHalfAMinute = new Date(Date.now() + 30_500).toUTCString();
    const retried = new RetryError({
      message: 'Failed after 2 attempts',
      reason: 'maxRetriesExceeded',
      errors: [refusal(500), refusal(429, { 'retry-after': inHalfAMinute })],
    });
    expect(describeProviderFailure(retried, connection)).toMatch(
      /^The AI provider is limiting requests \(HTTP 429\); try again in (29|30|31) seconds\.$/,
    );
  });

  it('never repeats the provider’s words for other refusals, and keeps them for the log', () => {
    const refused = refusal(
      400,
      {},
      JSON.stringify({ error: { message: 'Invalid schema for response_format' } }),
    );
    expect(describeProviderFailure(refused, connection)).toBe(
      'The AI provider refused the request (HTTP 400).',
    );
    expect(providerFailureOf(refused)).toMatchObject({
      status: 400,
      providerMessage: 'Invalid schema for response_format',
    });
    expect(providerFailureOf(refusal(502, {}, '<html>Bad gateway</html>')).providerMessage).toBe(
      '<html>Bad gateway</html>',
    );
    expect(describeProviderFailure(refusal(503), connection)).toBe(
      'The AI provider had an error (HTTP 503). Try again later.',
    );
    expect(describeProviderFailure(refusal(404), connection)).toBe(
      'The AI provider does not know the model “gpt-4.1-mini” (HTTP 404).',
    );
  });

  it('says why the provider could not be reached', () => {
    const refused = Object.assign(new Error('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    expect(describeProviderFailure(refused, connection)).toBe(
      'Could not reach the AI provider at https://llm.example/v1: the connection was refused.',
    );
  });
});
