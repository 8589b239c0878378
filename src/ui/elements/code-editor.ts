/**
 * The estimator's code editor: CodeMirror 6 with JavaScript highlighting, line numbers and the latest
 * failure shown at its line. Loaded only with <estimator-editor>, itself loaded only when the race has
 * "Your estimator", so the default page does not carry CodeMirror.
 */
import { javascript } from '@codemirror/lang-javascript';
import { setDiagnostics } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, basicSetup } from 'codemirror';

export interface CodeEditor {
  readonly text: string;
  setText(text: string): void;
  /** Marks `line` (1-based) with `message`, or clears every mark with null. */
  showError(error: { line: number; message: string } | null): void;
  destroy(): void;
}

export function createCodeEditor(parent: HTMLElement, root: Document | ShadowRoot, text: string, label: string, onChange: (text: string) => void): CodeEditor {
  const view = new EditorView({
    parent,
    root,
    state: EditorState.create({
      doc: text,
      extensions: [
        basicSetup,
        javascript(),
        EditorView.contentAttributes.of({ 'aria-label': label }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    get text() {
      return view.state.doc.toString();
    },
    setText(next) {
      if (next === view.state.doc.toString()) return;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next } });
    },
    showError(error) {
      if (!error || error.line < 1 || error.line > view.state.doc.lines) {
        view.dispatch(setDiagnostics(view.state, []));
        return;
      }
      const line = view.state.doc.line(error.line);
      view.dispatch(setDiagnostics(view.state, [{ from: line.from, to: line.to, severity: 'error', message: error.message }]));
    },
    destroy() {
      view.destroy();
    },
  };
}
