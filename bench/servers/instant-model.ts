/**
 * A model that answers at once, for measuring Letterset's own work around AI calls: an
 * OpenAI-compatible chat completions endpoint that "translates" the JSON of texts it is sent by
 * echoing each one back (placeholders and all). `PORT` to listen on; GET /health when ready.
 */
import http from 'node:http';

let requests = 0;
const server = http.createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/health') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ requests }));
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    requests += 1;
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      model: string;
      messages: { role: string; content: string }[];
    };
    const texts = JSON.parse(
      body.messages.find((message) => message.role === 'user')?.content ?? '{}',
    ) as Record<string, { text: string }>;
    const content = JSON.stringify({
      translations: Object.fromEntries(Object.entries(texts).map(([name, { text }]) => [name, text])),
    });
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${requests}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 100, completion_tokens: 100, total_tokens: 200 },
      }),
    );
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
