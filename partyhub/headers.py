"""Security headers on every response: Content-Security-Policy and Permissions-Policy
(settings.CONTENT_SECURITY_POLICY, settings.PERMISSIONS_POLICY; docs/security.md).

Django's SecurityMiddleware sets Referrer-Policy, X-Content-Type-Options and
Cross-Origin-Opener-Policy, and the clickjacking middleware X-Frame-Options; Django 5.2 has
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
        return response
