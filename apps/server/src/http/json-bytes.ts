import type { FastifyReply } from 'fastify';

/**
 * Sends a 200 answer already serialized to JSON, as is: for bodies built once and shared by
 * several requests. The route's response schema still documents the answer; keeping the bytes
 * true to it is the caller's job (and its tests').
 */
export function sendJsonBytes(reply: FastifyReply, json: Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}
