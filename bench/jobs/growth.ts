/** Growth: Return All and Import at the other sizes, each in a fresh `n8n execute` with its peak memory. */
import { expectItems, runWorkflow, type Bench } from '../measure';
import { refreshList } from '../sandboxApi';
import type { BenchWorkflow } from '../workflows';

export type Sized = Array<{ size: number; workflow: BenchWorkflow }>;

/** `growthLists`: the dynamic list of each size, by size. */
export async function growthJob(
	{ sandbox, host, figures }: Bench,
	growthReturnAll: Sized,
	growthImport: Sized,
	growthLists: Map<number, number>,
): Promise<void> {
	const { growth } = figures;
	for (const { size, workflow } of growthReturnAll) {
		await refreshList(sandbox, growthLists.get(size)!);
		const measured = expectItems(`Return All ${size}`, await runWorkflow(host, workflow), size);
		growth.push({
			job: 'Return All',
			size,
			ms: measured.ms,
			peakMiB: measured.peakMiB,
			msPer1000: (measured.ms / size) * 1000,
		});
	}
	for (const { size, workflow } of growthImport) {
		const measured = expectItems(`Import ${size}`, await runWorkflow(host, workflow), size);
		growth.push({
			job: 'Import',
			size,
			ms: measured.ms,
			peakMiB: measured.peakMiB,
			msPer1000: (measured.ms / size) * 1000,
		});
	}
	growth.sort((a, b) => a.job.localeCompare(b.job) || a.size - b.size);
}
