import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/App';
import { CodeHighlighterContext, windowHighlighter } from './highlight/context';
import './styles.css';
import './conversations.css';
import './protocol.css';
import './design.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <CodeHighlighterContext.Provider value={windowHighlighter()}>
      <App />
    </CodeHighlighterContext.Provider>
  </StrictMode>,
);
