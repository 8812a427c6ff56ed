import { render } from 'preact';
import { viewerDataElementId, type ViewerData } from '../src/viewer-data.js';
import { buildRuns } from './model/run-model.js';
import { DiffPage } from './views/diff-page.js';
import { ExperimentPage } from './views/experiment-page.js';
import { ServedPage } from './views/served-page.js';
import { TracePage } from './views/trace-page.js';
import './styles.css';

function readData(): ViewerData {
  const element = document.getElementById(viewerDataElementId);
  if (element?.textContent == null) throw new Error('This page holds no trace data.');
  return JSON.parse(element.textContent) as ViewerData;
}

function App({ data }: { data: ViewerData }) {
  if (data.mode === 'diff') return <DiffPage data={data} />;
  if (data.mode === 'serve')
    return (
      <ServedPage
        title={data.title}
        source={data.source}
        {...(data.token === undefined ? {} : { token: data.token })}
        datasets={data.datasets === true}
      />
    );
  if (data.mode === 'experiment') return <ExperimentPage data={data} />;
  const runs = data.files.flatMap(file =>
    buildRuns(file.events, data.files.length > 1 ? file.name : '', file.evaluations),
  );
  const warnings = data.files.flatMap(file => file.warnings);
  return <TracePage title={data.title} runs={runs} warnings={warnings} />;
}

const root =
  document.getElementById('app') ?? document.body.appendChild(document.createElement('div'));
render(<App data={readData()} />, root);
performance.mark('agent-trace:rendered');
