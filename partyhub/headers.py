"""Security headers on every response: Content-Security-Policy and Permissions-Policy
(settings.CONTENT_SECURITY_POLICY, settings.PERMISSIONS_POLICY; docs/security.md), and
Cross-Origin-Opener-Policy on secure requests only (settings.PARTYHUB_COOP).

Browsers honour COOP only on a trustworthy origin (HTTPS, or localhost); over plain HTTP on a
LAN address Chromium ignores it and logs an error on every page. So Django's own COOP is off
(SECURE_CROSS_ORIGIN_OPENER_POLICY = None) and it is sent here when request.is_secure(): HTTPS,
or X-Forwarded-Proto: https from a trusted proxy (TRUST_PROXY).

Django's SecurityMiddleware sets Referrer-Policy and X-Content-Type-Options, and the
clickjacking middleware X-Frame-Options; Django 5.2 has
no CSP of its own. This sits just below SecurityMiddleware, above WhiteNoise, so static files
and error pages (a forged Host's 400) carry the headers too. Sync only, like the rest of the
stack (partyhub/middleware.py).
"""
from django.conf import settings


class SecurityHeaders:
    sync_capable = True
    async_capable = False

    def __init__(self, get_response):
        self.get_response = get_response
        self.headers = {"Content-Security-Policy": settings.CONTENT_SECURITY_POLICY,
                        "Permissions-Policy": settings.PERMISSIONS_POLICY}

    def __call__(self, request):
        response = self.get_response(request)
        for name, value in self.headers.items():
            response.headers.setdefault(name, value)
        if request.is_secure() and settings.PARTYHUB_COOP:
            response.headers.setdefault("Cross-Origin-Opener-Policy", settings.PARTYHUB_COOP)
        return response
