/** Sign in, the account overview and order management: the login states the container reports (eVar1, event49). */
import { useState, type FormEvent } from 'react';
import { fire } from '../events.ts';
import { Link, currentPath, navigate } from '../router.tsx';
import { DEMO_ACCOUNT, signIn, signOut, signOutRemembered, useStore } from '../store.ts';

function SignIn() {
  const { profile } = useStore();
  const [email, setEmail] = useState<string>(DEMO_ACCOUNT.email);
  const [password, setPassword] = useState('demo');
  const [problem, setProblem] = useState('');
  const soft = profile.attributes.loginState === 'Soft Logged In';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (email.trim().toLowerCase() !== DEMO_ACCOUNT.email) return setProblem(`This demo has one account: ${DEMO_ACCOUNT.email}.`);
    if (!password) return setProblem('Enter a password (any will do in the demo).');
    setProblem('');
    signIn();
    // Signed in, the orders page is a new page: a route change, or a page view when already there.
    if (currentPath() === '/account/orders') fire('Page View');
    else navigate('/account/orders');
  };
  return (
    <form className="card form" onSubmit={submit} noValidate>
      <h2>{soft ? `Welcome back, ${DEMO_ACCOUNT.name}` : 'Sign in'}</h2>
      {soft && <p className="hint">You are recognised on this device (Soft Logged In). Sign in to see your orders.</p>}
      <label>Email <input id="signin-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="username" /></label>
      <label>Password <input id="signin-password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" /></label>
      {problem && <p className="error" role="alert">{problem}</p>}
      <button type="submit" className="button primary" id="signin">Sign in</button>
    </form>
  );
}

function SignOutButtons() {
  return (
    <p className="buttons">
      <button type="button" className="button" id="signout" onClick={() => (signOut(), navigate('/'))}>Sign out</button>
      <button type="button" className="button" id="signout-remember" onClick={() => (signOutRemembered(), navigate('/'))}>Sign out, remember me</button>
    </p>
  );
}

export function Account() {
  const { profile } = useStore();
  if (profile.attributes.loginState !== 'Full Logged In') {
    return (
      <>
        <h1>Your account</h1>
        <SignIn />
      </>
    );
  }
  return (
    <>
      <h1>Hello, {DEMO_ACCOUNT.name}</h1>
      <dl className="facts">
        <dt>Company</dt><dd>{DEMO_ACCOUNT.company}</dd>
        <dt>Account number</dt><dd>{profile.attributes.accountNumber}</dd>
        <dt>SAP account id</dt><dd>{profile.profileInfo.profileID}</dd>
        <dt>Login state</dt><dd>{profile.attributes.loginState}</dd>
      </dl>
      <p><Link to="/account/orders" id="orders-link">Your orders</Link></p>
      <SignOutButtons />
    </>
  );
}

const ORDERS = [
  { id: 'W481-2209', date: '2026-11-02', items: 3, total: 112.4, status: 'Delivered' },
  { id: 'W479-1187', date: '2026-10-14', items: 1, total: 89.0, status: 'Delivered' },
];

export function Orders() {
  const { profile } = useStore();
  if (profile.attributes.loginState !== 'Full Logged In') {
    return (
      <>
        <h1>Orders</h1>
        <SignIn />
      </>
    );
  }
  return (
    <>
      <h1>Orders</h1>
      <ul className="orders">
        {ORDERS.map((o) => (
          <li key={o.id}>
            <strong>Order {o.id}</strong> · {o.date} · {o.items} {o.items === 1 ? 'item' : 'items'} · ${o.total.toFixed(2)} · {o.status}
          </li>
        ))}
      </ul>
      <SignOutButtons />
    </>
  );
}
