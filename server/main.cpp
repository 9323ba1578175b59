// Placeholder until the CLI shim lands: keeps the build linkable.
int main() { return 0; }
