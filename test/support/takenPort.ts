/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * A port another process has taken, for the tests of what scripts/n8n-host.js does when a port it
 * picked is taken before n8n or Redis listens on it.
 */
import { createServer, type AddressInfo } from 'node:net';

import * as n8n from '../../scripts/n8n-host';

export interface TakenPort {
	/** The port, held by a server of this process until `release`. */
	held: number;
	/** Every port `pick` handed out, in order. */
	given: number[];
	/** A port picker for n8n-host.js: the taken port first, then free ports. */
	pick(): Promise<number>;
	release(): void;
}

export async function takenPort(): Promise<TakenPort> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const held = (server.address() as AddressInfo).port;
	const given: number[] = [];
	return {
		held,
		given,
		pick: async () => {
			const port = given.length === 0 ? held : await n8n.freePort();
			given.push(port);
			return port;
		},
		release: () => server.close(),
	};
}
