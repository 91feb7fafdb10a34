"""Accounts and sessions in the browser: sign-in, registration, verification, profile and settings pages."""
