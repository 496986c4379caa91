/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * `npm run bench`: the PropRadar node in a real n8n (the one scripts/n8n-install.sh installs),
 * side by side with n8n's HTTP Request node and a raw client (plain `fetch` from a second process),
 * in one run against one sandbox: per-item work, Return All, Import, the trigger's deliveries, the
 * growth of Return All and Import with size, and the sandbox's own speed (so that it is never what
 * is measured). Prints a table of times and ratios and writes it as JSON. Figures, never test
 * assertions (these machines are noisy).
 *
 *   node build/bench/run.js [--smoke] [--out FILE] [--profile] [--only JOB,...] [--rounds N]
 *                           [--wan [--wan-delay MS]]
 *
 * `--smoke`: tiny sizes (what the e2e tier runs, so the benchmark cannot rot), written to
 * .tools/bench-smoke.json; otherwise bench/results.json. `--profile`: also CPU profiles of the
 * per-item, Return All and Import jobs and of n8n's main process during the trigger's deliveries,
 * summarised by where the time goes. Per-item, Return All and Import run in five rounds (one in a
 * smoke run; `--rounds N` for another number), each round all of the job's cases of one kind (the
 * rounds in the running n8n first, then those in fresh processes: `inRounds`), and each case's
 * time is its median. `--only`: just the jobs named (perItem, getOwners, listItemAdd, returnAll,
 * import, growth, trigger), for working on one of them; its JSON then goes to
 * .tools/bench-only.json unless `--out` says otherwise. `--wan`: the per-item, Get Owners, List
 * Item > Add, Return All and Import jobs with n8n and the raw client reaching the sandbox over TLS
 * through a link of `--wan-delay` ms each way (25 by default; wanLink.ts), and the trigger's job
 * with the sandbox's deliveries and the Webhook node's events reaching n8n through a second such
 * link (n8n as it comes and under each engine setting; queue mode stays on loopback), written to
 * bench/results-wan.json.
 * Node time is what n8n records as the node's `executionTime`. Per-item, Return All and Import
 * are timed in the running n8n (each workflow active and called at its Webhook start node, run
 * once before the rounds, n8n's heap collected before each run (collector.ts), its time read from
 * the stored execution) beside a raw client on its second pass, the sandbox's heap collected
 * before every timed run (`collectSandbox`), and again each in a fresh
 * `n8n execute` (which also gives the growth table and its peak memory) beside a raw client on
 * its first.
 *
 * This file is the runner: it starts the sandbox, makes the workflows, starts n8n and runs the jobs
 * of bench/jobs/ (one file each) in turn; measure.ts times a run, options.ts reads the command line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';

import { ACCOUNTS } from '../sandbox/accounts';
import { wallet } from '../sandbox/charges';
import { startSandbox } from '../sandbox/server';
import { connectCollector, inspectOption } from './collector';
import { growthJob } from './jobs/growth';
import { importJob } from './jobs/import';
import { getOwnersJob } from './jobs/getOwners';
import { listItemAddJob } from './jobs/listItemAdd';
import { perItemJob } from './jobs/perItem';
import { returnAllJob } from './jobs/returnAll';
import { sandboxJob, sandboxResult, sandboxRow } from './jobs/sandbox';
import { triggerJob, triggerResult, type TriggerFigures } from './jobs/trigger';
import { sandboxCollections, type Bench } from './measure';
import { n8n } from './n8n';
import { COMMAND, OUT, profile, runs, SIZES, smoke, wan, WAN_DELAY_MS } from './options';
import { summariseProfile } from './profile';
import { createList, importList } from './sandboxApi';
import { markdown } from './table';
import { makeCertificate, startWanLink } from './wanLink';
import {
	importN8nAloneWorkflow,
	importWorkflows,
	getOwnersWorkflows,
	listItemAddWorkflows,
	perItemWorkflows,
	returnAllWorkflows,
	triggerWorkflow,
	webhookNodeWorkflow,
	type BenchWorkflow,
} from './workflows';

async function main(): Promise<void> {
	const started = Date.now();
	const loadBefore = loadavg();
	// With --wan, one certificate for the run's two links (wanLink.ts): the sandbox, which runs in
	// this process, trusts it for its webhook deliveries; every process the benchmark starts from
	// here on (n8n, its `n8n execute`s, the raw client) through NODE_EXTRA_CA_CERTS.
	const certificateDir = wan ? mkdtempSync(join(tmpdir(), 'propradar-wan-')) : undefined;
	const certificate = certificateDir ? makeCertificate(certificateDir) : undefined;
	if (certificate) process.env.NODE_EXTRA_CA_CERTS = certificate.certFile;
	const sandbox = await startSandbox({ port: 0, webhookCa: certificate?.cert });
	wallet(sandbox.ctx, ACCOUNTS[0]).balanceCents = Number.MAX_SAFE_INTEGER;
	// With --wan, n8n and the raw client reach the sandbox over the link; the benchmark's own set-up
	// calls (lists, imports' lists) stay on loopback.
	const link = certificate ? await startWanLink(sandbox.url, WAN_DELAY_MS, certificate) : undefined;
	const apiUrl = link?.url ?? sandbox.url;
	console.log(
		`PropRadar benchmark${smoke ? ' (smoke: tiny sizes)' : ''}: sandbox ${sandbox.url}${link ? `, over a link of ${WAN_DELAY_MS} ms each way with TLS at ${link.url}` : ''}, ${cpus().length} cores, load ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`,
	);

	// ------------------------------------------------------------------ the sandbox on its own
	const { figures: sandboxFigures, returnAllList, growthLists } = await sandboxJob(sandbox);

	// ------------------------------------------------------------------ the workflows
	const perItem = perItemWorkflows(SIZES.perItem, apiUrl);
	const owners = getOwnersWorkflows(SIZES.perItem, apiUrl);
	const addLists = {
		propRadar: await createList(sandbox, { ListName: 'bench add node', ListType: 'static' }),
		httpRequest: await createList(sandbox, { ListName: 'bench add http', ListType: 'static' }),
		raw: await createList(sandbox, { ListName: 'bench add raw', ListType: 'static' }),
	};
	const listItemAdd = listItemAddWorkflows(SIZES.perItem, addLists, apiUrl);
	const returnAll = returnAllWorkflows('PropRadarBnch10', returnAllList, SIZES.returnAll, apiUrl);
	// Every import run imports into lists of its own, so that none imports into a list a run before it filled.
	const importPair = async (id: string, name: string) =>
		importWorkflows(
			id,
			{
				propRadar: await importList(sandbox, `bench node ${name}`),
				httpRequest: await importList(sandbox, `bench http ${name}`),
			},
			SIZES.importRecords,
			SIZES.batchSize,
			apiUrl,
		);
	const imports: Array<ReturnType<typeof importWorkflows>> = [];
	const freshImports: Array<ReturnType<typeof importWorkflows>> = [];
	for (let round = 0; round < SIZES.rounds; round++) {
		imports.push(await importPair(`PropRadarBnch2${round}`, `${round}`));
		freshImports.push(await importPair(`PropRadarBnch5${round}`, `${round} fresh`));
	}
	const importsBefore = await importPair('PropRadarBnch28', 'before the rounds');
	const importN8nAlone = importN8nAloneWorkflow('PropRadarBnch27', SIZES.importRecords);
	const profileImport = importWorkflows(
		'PropRadarBnch29',
		{ propRadar: await importList(sandbox, 'bench node profile') },
		SIZES.importRecords,
		SIZES.batchSize,
		apiUrl,
	).propRadar;
	const growthReturnAll = SIZES.growth
		.filter((size) => size !== SIZES.returnAll)
		.map((size, index) => ({
			size,
			workflow: returnAllWorkflows(`PropRadarBnch3${index}`, growthLists.get(size)!, size, apiUrl)
				.propRadar,
		}));
	const growthImport: Array<{ size: number; workflow: BenchWorkflow }> = [];
	for (const [index, size] of SIZES.growth.filter((s) => s !== SIZES.importRecords).entries()) {
		growthImport.push({
			size,
			workflow: importWorkflows(
				`PropRadarBnch4${index}`,
				{ propRadar: await importList(sandbox, `bench growth ${size}`) },
				size,
				SIZES.batchSize,
				apiUrl,
			).propRadar,
		});
	}
	const triggerList = await createList(sandbox, {
		ListName: 'bench trigger',
		ListType: 'static',
		isMonitored: 1,
	});
	const trigger = triggerWorkflow(triggerList);
	const webhookNode = webhookNodeWorkflow();
	const workflows = [
		perItem.propRadar,
		perItem.httpRequest,
		perItem.editFields,
		owners.propRadar,
		owners.httpRequest,
		listItemAdd.propRadar,
		listItemAdd.httpRequest,
		returnAll.propRadar,
		returnAll.httpRequest,
		...[...imports, ...freshImports, importsBefore].flatMap((pair) => [
			pair.propRadar,
			pair.httpRequest!,
		]),
		importN8nAlone,
		...(profile ? [profileImport] : []),
		...growthReturnAll.map((g) => g.workflow),
		...growthImport.map((g) => g.workflow),
		trigger,
		webhookNode,
	];

	console.log('preparing n8n (the package packed and installed as a community package) ...');
	let prepared = await n8n.prepare({ sandboxUrl: apiUrl, workflows });
	// With --wan, the trigger's deliveries reach n8n over a link of their own, as users' n8n is
	// remote from the service: n8n's webhook URL is the link's, so that is what the trigger
	// registers, and the Webhook node's events are posted there too (N8N_WEBHOOK_URL is read before
	// WEBHOOK_URL, and prepare sets it to n8n's loopback address: both say the link's).
	const webhookLink =
		certificate && runs('trigger')
			? await startWanLink(prepared.url, WAN_DELAY_MS, certificate)
			: undefined;
	if (webhookLink)
		prepared = {
			...prepared,
			env: {
				...prepared.env,
				N8N_WEBHOOK_URL: `${webhookLink.url}/`,
				WEBHOOK_URL: `${webhookLink.url}/`,
			},
		};
	// With --profile, n8n's main process (which serves the trigger's deliveries) is profiled too.
	const mainProfileDir =
		profile && runs('trigger') ? mkdtempSync(join(tmpdir(), 'propradar-profile-')) : undefined;
	const inspectorPort = await n8n.freePort();
	const nodeOptions = [
		inspectOption(inspectorPort),
		...(mainProfileDir ? [`--cpu-prof --cpu-prof-dir=${mainProfileDir}`] : []),
	].join(' ');
	const host = await n8n.start(
		{ ...prepared, env: { ...prepared.env, NODE_OPTIONS: nodeOptions } },
		{ logFile: join(prepared.userFolder, 'n8n.log') },
	);
	const bench: Bench = {
		sandbox,
		apiUrl,
		host,
		collector: await connectCollector(inspectorPort),
		figures: { rows: [], growth: [], profiles: [] },
	};
	const { rows, growth, profiles } = bench.figures;
	let triggerFigures: TriggerFigures | undefined;
	try {
		// The per-item, Return All and Import workflows are active in the running n8n, each called at
		// its webhook; each runs once before its rounds, as a workflow users run has run before.
		const client = await n8n.login(bench.host);
		const served = [
			perItem.propRadar,
			perItem.httpRequest,
			perItem.editFields,
			owners.propRadar,
			owners.httpRequest,
			listItemAdd.propRadar,
			listItemAdd.httpRequest,
			returnAll.propRadar,
			returnAll.httpRequest,
			...[...imports, importsBefore].flatMap((pair) => [pair.propRadar, pair.httpRequest!]),
			importN8nAlone,
		];
		for (const workflow of served) await n8n.activate(client, workflow.id);

		if (runs('perItem')) await perItemJob(bench, client, perItem);
		if (runs('getOwners')) await getOwnersJob(bench, client, owners);
		if (runs('listItemAdd')) await listItemAddJob(bench, client, listItemAdd, addLists.raw);
		if (runs('returnAll')) await returnAllJob(bench, client, returnAll, returnAllList);
		if (runs('import'))
			await importJob(bench, client, {
				imports,
				freshImports,
				importsBefore,
				importN8nAlone,
				profileImport,
			});
		if (runs('growth')) await growthJob(bench, growthReturnAll, growthImport, growthLists);
		// The trigger's job starts n8n again under other settings: `bench.host` is then the last one.
		if (runs('trigger'))
			triggerFigures = await triggerJob(
				bench,
				prepared,
				{ trigger: trigger.id, webhookNode: webhookNode.id },
				triggerList,
				webhookLink && certificate && { url: webhookLink.url, ca: certificate.cert },
			);
	} finally {
		bench.collector.close();
		await bench.host.stop();
		if (mainProfileDir) {
			profiles.push(
				`n8n's main process during the trigger's deliveries: ${summariseProfile(mainProfileDir, /PropRadarTrigger\.node\.js webhook$/, /n8n-nodes-propradar\//)}`,
			);
			rmSync(mainProfileDir, { recursive: true, force: true });
		}
		rmSync(prepared.userFolder, { recursive: true, force: true });
		await webhookLink?.close();
		await link?.close();
		await sandbox.close();
		if (certificateDir) rmSync(certificateDir, { recursive: true, force: true });
	}

	rows.push(sandboxRow(sandboxFigures));
	const result = {
		command: COMMAND,
		date: new Date().toISOString(),
		machine: {
			cpus: cpus().length,
			cpu: cpus()[0]?.model,
			memoryGiB: Math.round(totalmem() / 2 ** 30),
			freeMemoryGiB: Math.round(freemem() / 2 ** 30),
			node: process.version,
			loadBefore,
			loadAfter: loadavg(),
		},
		n8n: n8n.N8N_VERSIONS.newest,
		link: link ? { oneWayMs: WAN_DELAY_MS } : undefined,
		rounds: SIZES.rounds,
		collectionsBeforeRuns: bench.collector.collections,
		sandboxCollections: sandboxCollections(),
		durationSeconds: Math.round((Date.now() - started) / 1000),
		rows,
		sandbox: sandboxResult(sandboxFigures),
		...triggerResult(triggerFigures),
		growth,
		profile: profiles.length > 0 ? profiles.join('\n\n') : undefined,
	};
	writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
	console.log(`\n${markdown(result)}\nwritten to ${OUT}`);
	if (profiles.length > 0) console.log(`\nCPU profiles:\n${profiles.join('\n\n')}`);
}

if (require.main === module) {
	main().catch((error: Error) => {
		console.error(error);
		process.exit(1);
	});
}
