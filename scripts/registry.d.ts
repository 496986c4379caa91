/** Types of scripts/registry.js (plain CommonJS): a local npm registry (verdaccio) on loopback. */

/** A running verdaccio, as `start` started it. */
export interface Registry {
	/** http://127.0.0.1:<port>, without a trailing slash. */
	url: string;
	port: number;
	/** Its temp folder: config, storage, htpasswd, and the npm config and cache of the commands run against it. */
	dir: string;
	/** The npm config given to every npm command run against it (the user's token, for `npm publish`). */
	userconfig: string;
	/** The npm cache of those commands. */
	cache: string;
	/** Its last output. */
	output(): string;
	/** Ends verdaccio and removes its folder. */
	stop(): Promise<void>;
}

/** Installs verdaccio into .tools/registry unless it is there; true when it was installed now. */
export function install(): boolean;
/**
 * Starts verdaccio on 127.0.0.1 on a free port with no uplinks (it serves only what is published
 * to it) and creates its one user. Its output goes to `logFile` when given.
 */
export function start(options?: { logFile?: string; timeoutMs?: number }): Promise<Registry>;
/** Packs this package (`npm pack` of the built dist/) into `destination`; resolves to the tarball's path and version. */
export function pack(
	destination: string,
	options?: { signal?: AbortSignal },
): Promise<{ tarball: string; version: string }>;
/** A copy of a packed tarball, next to it, with `version` in its package.json; resolves to its path and version. */
export function withVersion(
	tarball: string,
	version: string,
	options?: { signal?: AbortSignal },
): Promise<{ tarball: string; version: string }>;
/** Publishes a tarball to the registry (`npm publish <tarball>`). */
export function publish(
	registry: Registry,
	tarball: string,
	options?: { signal?: AbortSignal },
): Promise<{ stdout: string; stderr: string }>;
/**
 * Runs `npm <args>` in `cwd` against the registry: `--registry`, `--userconfig` and `--cache` are
 * added, and the npm_config_* variables of this process are not passed on. Rejects on a non-zero
 * exit, with `stdout` and `stderr` on the error.
 */
export function npm(
	registry: Registry,
	args: string[],
	options?: { cwd?: string; signal?: AbortSignal },
): Promise<{ stdout: string; stderr: string }>;
/** The next patch version (0.1.0 -> 0.1.1). */
export function nextPatch(version: string): string;
export const VERDACCIO_VERSION: string;
