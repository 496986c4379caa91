import type { RouteModule } from '../types';

/** One API call as the sandbox received it (method, path, the query string as sent). */
export interface RequestLogEntry {
	method: string;
	path: string;
	query: string;
}

// The newest calls only: a benchmark sends hundreds of thousands.
const KEPT = 10_000;

/**
 * The request log: every API call (not `/_sandbox/`) the sandbox received, newest last, as
 * `GET /_sandbox/requests` answers it. A reset empties it. It shows what a client sent that the
 * charge log cannot, such as a `Purchase=1` refused or a write (`npm run check:live`'s test).
 */
export const requestLogRoutes: RouteModule = (app, ctx) => {
	const log = () => ctx.store.slice<RequestLogEntry[]>('requests', () => []);
	app.addHook('onRequest', async (request) => {
		if (request.url.startsWith('/_sandbox/')) return;
		const [path, query = ''] = request.url.split('?', 2);
		const entries = log();
		entries.push({ method: request.method, path, query });
		if (entries.length > KEPT) entries.splice(0, entries.length - KEPT);
	});
	app.get('/_sandbox/requests', async () => ({ results: log() }));
};
