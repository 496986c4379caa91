/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The polling trigger's part of the engine tier: a workflow holding a PropRadar Polling Trigger,
 * polled as n8n 2.41 polls it. Each poll runs through n8n-core's `PollTriggerExecutor` with a
 * `PollContext` (packages/core: `active-workflow-triggers.js`, `activatePollTrigger`): at
 * activation (and at n8n's start) one poll whose error fails the activation, then one per tick of
 * Poll Times, whose error n8n records as a failed execution. What a poll returns is what n8n would
 * start an execution with.
 *
 * n8n keeps the static data in memory between polls and writes it to its database after the
 * activation and at each poll that emits (`saveStaticData`); `restart()` starts over from what was
 * written, as n8n does after a restart.
 */
import { randomUUID } from 'node:crypto';

import { Container } from '@n8n/di';
import { PollContext, PollTriggerExecutor } from 'n8n-core';
import {
	Workflow,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type IWorkflowBase,
	type WorkflowActivateMode,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { PropRadarPollingTrigger } from '../../nodes/PropRadar/PropRadarPollingTrigger.node';
import { additionalDataFor, nodeTypes, registerNodeType, type CredentialValues } from './harness';

export const POLLING_TRIGGER_TYPE = 'n8n-nodes-propradar.propRadarPollingTrigger';
registerNodeType(POLLING_TRIGGER_TYPE, new PropRadarPollingTrigger());

/** What one poll did: the items of the execution it would start, or the error n8n records. */
export interface PollOutcome {
	/** The items n8n starts an execution with; undefined when the poll emitted nothing. */
	items?: IDataObject[];
	error?: Error;
}

export class PollingWorkflow {
	readonly id = `wf-${randomUUID().slice(0, 8)}`;
	readonly node: INode;
	private workflow: Workflow;
	private readonly workflowData: IWorkflowBase;
	/** The static data as n8n's database holds it. */
	private stored = '{}';

	constructor(
		private readonly credentials: CredentialValues,
		parameters: IDataObject,
	) {
		this.node = {
			id: randomUUID(),
			name: 'PropRadar Polling Trigger',
			type: POLLING_TRIGGER_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: parameters as INode['parameters'],
			credentials: { propRadarApi: { id: 'cred-1', name: 'PropRadar account' } },
		};
		this.workflowData = {
			id: this.id,
			name: `polling ${this.id}`,
			active: true,
			isArchived: false,
			nodes: [this.node],
			connections: {},
			settings: {},
			createdAt: new Date(),
			updatedAt: new Date(),
		} as unknown as IWorkflowBase;
		this.workflow = this.load();
	}

	private load(): Workflow {
		return new Workflow({
			id: this.id,
			name: this.workflowData.name,
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: JSON.parse(this.stored) as IDataObject,
		});
	}

	/** The node's static data as n8n holds it in memory now. */
	get staticData(): IDataObject {
		return (
			((this.workflow.staticData as IDataObject)[`node:${this.node.name}`] as
				IDataObject | undefined) ?? {}
		);
	}

	/** Edits the node's parameters, as the user does before publishing the workflow again. */
	edit(parameters: IDataObject): void {
		Object.assign(this.node.parameters, parameters);
	}

	private save(): void {
		this.stored = JSON.stringify(this.workflow.staticData);
	}

	private async runPoll(
		mode: WorkflowExecuteMode,
		activation: WorkflowActivateMode,
		testing: boolean,
	): Promise<PollOutcome> {
		const outcome: PollOutcome = {};
		const context = new PollContext(
			this.workflow,
			this.node,
			additionalDataFor(this.credentials, this.workflowData),
			mode,
			activation,
			(data: INodeExecutionData[][]) => {
				outcome.items = data[0].map((item) => item.json);
				this.save();
			},
			(error: Error) => {
				outcome.error = error;
			},
		);
		const poll = Container.get(PollTriggerExecutor).create(
			this.workflow,
			this.node,
			context,
			() => true,
		);
		try {
			await poll(testing);
		} catch (error) {
			outcome.error = error as Error;
		}
		return outcome;
	}

	/** Publishing the workflow: n8n polls once, and an error fails the activation; then it writes the static data. */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<PollOutcome> {
		const outcome = await this.runPoll('trigger', activation, true);
		if (!outcome.error) this.save();
		return outcome;
	}

	/** One tick of Poll Times. */
	async poll(): Promise<PollOutcome> {
		return await this.runPoll('trigger', 'update', false);
	}

	/** "Fetch Test Event" in the editor. */
	async fetchTestEvent(): Promise<PollOutcome> {
		return await this.runPoll('manual', 'manual', true);
	}

	/** n8n stops (what it held in memory is gone) and starts again, activating the workflow ('init'). */
	async restart(): Promise<PollOutcome> {
		this.workflow = this.load();
		return await this.activate('init');
	}
}
