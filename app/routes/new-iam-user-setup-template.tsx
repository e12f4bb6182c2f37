// Placeholder: being built.
export default function Page() {
  return <h1>new-iam-user-setup-template</h1>;
}
