const { src, dest } = require('gulp');

/**
 * Copies what `tsc` does not emit into dist/: the icons, kept once in icons/ (the nodes and the
 * credential name them as `file:../../icons/…` and `file:../icons/…`, which n8n resolves from the
 * compiled file), and each node's codex file, which n8n reads beside the node.
 */
function buildIcons() {
	return src(['icons/*.svg', 'nodes/**/*.node.json'], { base: '.', encoding: false }).pipe(
		dest('dist'),
	);
}

exports['build:icons'] = buildIcons;
