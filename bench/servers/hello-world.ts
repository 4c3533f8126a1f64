import Fastify from 'fastify';

/** The baseline: the smallest Fastify route, with the same logger settings as Letterset in production. */
const app = Fastify({ logger: { level: 'warn' } });
app.get('/hello', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT ?? 3100), host: '127.0.0.1' });
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
