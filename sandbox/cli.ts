/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { ACCOUNTS } from './accounts';
import { ApiError } from './errors';
import { startSandbox } from './server';
import { variantsOf } from './variants';

function argValue(name: string): string | undefined {
	const i = process.argv.indexOf(`--${name}`);
	return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
	const port = Number(argValue('port') ?? process.env.PORT ?? 8787);
	if (!Number.isInteger(port) || port < 0 || port > 65535) {
		throw new Error(
			`--port must be a whole number from 0 to 65535, got ${argValue('port') ?? process.env.PORT}`,
		);
	}
	const rate = argValue('rate-limit');
	if (rate !== undefined && !(Number(rate) > 0)) {
		throw new Error(`--rate-limit must be a number of requests a second above 0, got ${rate}`);
	}
	// `--variant a,b`: a service that differs in these ways (sandbox/variants.ts); a wrong name throws, naming the known ones.
	const variant = argValue('variant');
	const variants = variant === undefined ? [] : variantsOf(variant.split(','));
	const sandbox = await startSandbox({
		variants,
		rateLimit: rate === undefined ? undefined : { perSecond: Number(rate) },
		port,
		host: argValue('host') ?? process.env.HOST ?? '127.0.0.1',
		dataFile: argValue('data'),
		allowRemoteWebhooks: process.argv.includes('--allow-remote-webhooks'),
	});
	console.log(`PropRadar sandbox listening on ${sandbox.url}`);
	if (variants.length > 0) console.log(`Variants: ${variants.join(', ')}`);
	console.log('Tokens (Authorization: Bearer <token>):');
	for (const account of ACCOUNTS) {
		console.log(`  ${account.token.padEnd(24)} ${account.description}`);
	}
	const stop = () => void sandbox.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((err: Error) => {
	// A wrong `--variant` is refused as the control route refuses it: the detail is the message.
	console.error(err instanceof ApiError ? `${err.message}: ${err.userMessage}` : err.message);
	process.exit(1);
});
