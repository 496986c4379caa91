const { src, dest } = require('gulp');

/** Copies the node icons and codex files next to the compiled nodes, where n8n looks for them. */
function buildIcons() {
	return src(['nodes/**/*.{png,svg}', 'nodes/**/*.node.json', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports['build:icons'] = buildIcons;
