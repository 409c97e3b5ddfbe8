/**
 * The email sign-up modal. Opening it and signing up are each a `Content: Modal View`, with
 * `modal.page.pageInfo.pageUID` 'Email Sign Up' and then 'Email Sign Up Success' (docs/spec-coverage.md §2's
 * modal element); the modal's page type is left to the container's rule: the page's type + ' - modal'.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { fire } from './events.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function SignUpModal({ onClose }: { onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState('');
  const [done, setDone] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // Opening is one modal view, however often the parent re-renders.
  useEffect(() => {
    fire('Content: Modal View', { modal: { pageUID: 'Email Sign Up', contentTitle: 'Email sign-up' } });
    input.current?.focus();
  }, []);
  useEffect(() => {
    const esc = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    addEventListener('keydown', esc);
    return () => removeEventListener('keydown', esc);
  }, [onClose]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!EMAIL.test(email.trim())) {
      setProblem('Enter an email address such as name@example.com.');
      return;
    }
    setProblem('');
    setDone(true);
    fire('Content: Modal View', { modal: { pageUID: 'Email Sign Up Success', contentTitle: 'Email sign-up: thank you' } });
  };
  return (
    <div className="backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="signup-title" id="signup-modal">
        <button type="button" className="close" aria-label="Close" onClick={onClose}>×</button>
        <h2 id="signup-title">{done ? 'You are signed up' : 'Get deals by email'}</h2>
        {done ? (
          <>
            <p>Thanks! Look out for our next safety newsletter at {email.trim()}.</p>
            <button type="button" className="button primary" onClick={onClose}>Continue shopping</button>
          </>
        ) : (
          <form onSubmit={submit} noValidate>
            <label>Email <input ref={input} id="signup-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="name@example.com" /></label>
            {problem && <p className="error" role="alert">{problem}</p>}
            <button type="submit" className="button primary" id="signup-submit">Sign up</button>
          </form>
        )}
      </div>
    </div>
  );
}
