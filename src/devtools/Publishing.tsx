import { useEffect, useState } from 'react';
import { PREVIEW_ENVIRONMENTS, publishView, readPublishState, switchPreview, type PublishStateView } from './publishing.ts';

/** One line under the overlay's header: the environment and version this page runs, and the preview switch. */
export function Publishing({ base, stage }: { base: string; stage: string }) {
  const [state, setState] = useState<PublishStateView | undefined>();
  useEffect(() => {
    void readPublishState(base).then(setState);
  }, [base]);
  const v = publishView(base, stage, document.cookie, state);
  return (
    <div className="publishing" aria-label="publishing">
      <span className="running">
        runs <b>{v.env}</b>
        {v.version ? <> · version <b>{v.version}</b></> : v.build ? <> · build {v.build}</> : null}
        {v.preview ? ` · preview of ${v.preview} (this browser only)` : ''}
      </span>
      {v.live.length > 0 && <span className="live">{v.live.map((l) => `${l.env}: ${l.version}`).join(' · ')}</span>}
      {v.build && (
        <span className="switch">
          preview:{' '}
          {PREVIEW_ENVIRONMENTS.map((env) => (
            <button key={env} className={v.preview === env ? 'on' : ''} disabled={v.preview === env} onClick={() => switchPreview(env)}>
              {env}
            </button>
          ))}
          {v.preview && <button onClick={() => switchPreview(undefined)}>end preview</button>}
        </span>
      )}
    </div>
  );
}
