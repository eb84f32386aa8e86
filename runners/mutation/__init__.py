"""Mutation testing of the runtimes' own channel code: mutants that become toolchains, so
that campaigns can be scored on how many injected faults they find."""
