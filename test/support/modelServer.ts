/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * A scripted model for the e2e tier: a small OpenAI-compatible server (`POST /v1/chat/completions`,
 * plain or streamed) on 127.0.0.1 that n8n's OpenAI Chat Model node talks to through its
 * credential's Base URL. It thinks nothing: the first user message carries the script,
 * `SCRIPT {"id": ..., "turns": [[{"tool": ..., "args": {...}}], ...], "final": "..."}`, and each
 * request gets the next turn's tool calls (counted by the assistant messages that called tools so
 * far), then the final answer. Every request is kept, so a test reads what n8n sent the model:
 * the tools it offered (their descriptions) and the tool results it fed back.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedCall {
	/** The tool's node name (the model sees it as n8n's `nodeNameToToolName` writes it). */
	tool: string;
	args: Record<string, unknown>;
}

export interface Script {
	/** Names the conversation, for `conversation()`. */
	id: string;
	/** The tool calls of each turn, one model answer per turn (several calls in one turn are parallel calls). */
	turns: ScriptedCall[][];
	final?: string;
}

export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
}

export interface OfferedTool {
	type: string;
	function: { name: string; description?: string; parameters?: unknown };
}

export interface ChatRequest {
	model?: string;
	messages: ChatMessage[];
	tools?: OfferedTool[];
	stream?: boolean;
}

/** One tool result as the model received it: the call it answered and the text n8n sent back. */
export interface ToolResult {
	tool: string;
	args: Record<string, unknown>;
	content: string;
}

export interface ModelServer {
	/** The Base URL for n8n's OpenAI credential (ends in /v1). */
	url: string;
	/** Every chat request, in the order received. */
	requests: ChatRequest[];
	/** The requests of one script's conversation. */
	conversation(id: string): ChatRequest[];
	/** The tools n8n offered the model in the first request of a conversation. */
	toolsOffered(id: string): OfferedTool[];
	/** The tool results the model received in a conversation, in call order. */
	toolResults(id: string): ToolResult[];
	close(): Promise<void>;
}

/** n8n-workflow's `nodeNameToToolName`: what the model calls a tool node. */
export const toolName = (nodeName: string) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');

const SCRIPT_MARK = 'SCRIPT ';

/** The script a request carries in its first user message that has one. */
function scriptOf(request: ChatRequest): Script | undefined {
	for (const message of request.messages ?? []) {
		const text =
			typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? '');
		const at = text.indexOf(SCRIPT_MARK);
		if (message.role === 'user' && at >= 0)
			return JSON.parse(text.slice(at + SCRIPT_MARK.length)) as Script;
	}
	return undefined;
}

/** The text of a tool message, whether n8n sent a string or content parts. */
function textOf(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content))
		return content
			.map((part) =>
				typeof part === 'string' ? part : String((part as { text?: unknown }).text ?? ''),
			)
			.join('');
	return JSON.stringify(content);
}

/** The model's answer to a request: the next turn's tool calls, or the final words. */
function answerTo(
	request: ChatRequest,
	sequence: number,
): { content: string | null; toolCalls: Array<{ id: string; name: string; arguments: string }> } {
	const script = scriptOf(request);
	if (!script) return { content: 'No script was given.', toolCalls: [] };
	const turn = (request.messages ?? []).filter(
		(message) => message.role === 'assistant' && (message.tool_calls?.length ?? 0) > 0,
	).length;
	const calls = script.turns[turn];
	if (!calls) return { content: script.final ?? 'Done.', toolCalls: [] };
	return {
		content: null,
		toolCalls: calls.map((call, index) => ({
			id: `call_${sequence}_${index}`,
			name: toolName(call.tool),
			arguments: JSON.stringify(call.args),
		})),
	};
}

function reply(request: ChatRequest, response: ServerResponse, sequence: number): void {
	const { content, toolCalls } = answerTo(request, sequence);
	const id = `chatcmpl-${sequence}`;
	const created = Math.floor(Date.now() / 1000);
	const model = request.model ?? 'scripted';
	const finish = toolCalls.length > 0 ? 'tool_calls' : 'stop';
	const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
	const calls = toolCalls.map((call, index) => ({
		index,
		id: call.id,
		type: 'function',
		function: { name: call.name, arguments: call.arguments },
	}));
	if (!request.stream) {
		const message = {
			role: 'assistant',
			content,
			...(calls.length > 0
				? { tool_calls: calls.map(({ id, type, function: fn }) => ({ id, type, function: fn })) }
				: {}),
		};
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end(
			JSON.stringify({
				id,
				object: 'chat.completion',
				created,
				model,
				choices: [{ index: 0, message, finish_reason: finish }],
				usage,
			}),
		);
		return;
	}
	response.writeHead(200, {
		'content-type': 'text/event-stream',
		'cache-control': 'no-cache',
		connection: 'keep-alive',
	});
	const chunk = (delta: object, finishReason: string | null, extra: object = {}) =>
		response.write(
			`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`,
		);
	chunk({ role: 'assistant', content: calls.length > 0 ? null : '' }, null);
	if (calls.length > 0) chunk({ tool_calls: calls }, null);
	else chunk({ content }, null);
	chunk({}, finish, { usage });
	response.end('data: [DONE]\n\n');
}

async function body(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

export async function startModelServer(): Promise<ModelServer> {
	const requests: ChatRequest[] = [];
	const server: Server = createServer((request, response) => {
		void (async () => {
			const text = await body(request);
			if (request.method === 'POST' && request.url?.endsWith('/chat/completions')) {
				const chat = JSON.parse(text) as ChatRequest;
				requests.push(chat);
				reply(chat, response, requests.length);
				return;
			}
			if (request.method === 'GET' && request.url?.endsWith('/models')) {
				response.writeHead(200, { 'content-type': 'application/json' });
				response.end(
					JSON.stringify({
						object: 'list',
						data: [{ id: 'scripted', object: 'model', owned_by: 'test' }],
					}),
				);
				return;
			}
			// As OpenAI answers a route it does not have: n8n's Agents module then falls back from the Responses API to chat completions.
			response.writeHead(404, { 'content-type': 'application/json' });
			response.end(
				JSON.stringify({
					error: {
						message: `Unknown request URL: ${request.method} ${request.url}. Please check the URL for typos.`,
						type: 'invalid_request_error',
						param: null,
						code: 'unknown_url',
					},
				}),
			);
		})().catch((error: Error) => {
			response.writeHead(500, { 'content-type': 'application/json' });
			response.end(JSON.stringify({ error: { message: error.message } }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const conversation = (id: string) => requests.filter((request) => scriptOf(request)?.id === id);
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		conversation,
		toolsOffered: (id) => conversation(id)[0]?.tools ?? [],
		toolResults: (id) => {
			const last = conversation(id).at(-1);
			if (!last) return [];
			const calls = new Map<string, { tool: string; args: Record<string, unknown> }>();
			for (const message of last.messages) {
				for (const call of message.tool_calls ?? [])
					calls.set(call.id, {
						tool: call.function.name,
						args: JSON.parse(call.function.arguments || '{}') as Record<string, unknown>,
					});
			}
			return last.messages
				.filter((message) => message.role === 'tool')
				.map((message) => ({
					...(calls.get(message.tool_call_id ?? '') ?? { tool: '?', args: {} }),
					content: textOf(message.content),
				}));
		},
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
