"""/privacy: the Privacy Policy (eight sections, effective October 16, 2025)."""

import reflex as rx

from app.ui import routes
from app.ui.site.legal import Section, legal_page
from app.ui.state.company import AT_BUILD, CompanyState

_CO = AT_BUILD.name

SECTIONS: list[Section] = [
    (
        "information-we-collect",
        "Information We Collect",
        [
            f'{_CO} ("we", "us" or "our") collects only the information we need to answer your requests, '
            "deliver our services and run this website. Depending on how you use the site, this may include:",
            [
                "Contact details you give us, such as your name, e-mail address, phone number and company, when you "
                "send an inquiry, request a quote, book a meeting or subscribe to our newsletter.",
                "The content of your messages, including project details, service interests and budget ranges.",
                "Job application information, such as your name, contact details, LinkedIn profile, resume and "
                "cover letter.",
                "Account information for the client portal, such as your username, e-mail address, company and "
                "the projects, invoices and meetings linked to your account.",
                "Technical information sent by your browser, such as your IP address, browser type, pages visited "
                "and the date and time of your visit, which our servers record to keep the site secure and "
                "working.",
            ],
            "We do not knowingly collect information from children under 13, and this website is not directed at them.",
        ],
    ),
    (
        "how-we-use-information",
        "How We Use Your Information",
        [
            "We use the information we collect to:",
            [
                "Respond to your inquiries, prepare quotes and schedule consultations.",
                "Provide, maintain and support the services you engage us for, including the client portal.",
                "Send the newsletter you have confirmed you want to receive (you can unsubscribe at any time).",
                "Evaluate job applications and contact candidates about open positions.",
                "Protect the website and our clients against spam, fraud and abuse, for example by limiting how "
                "often a form can be submitted.",
                "Comply with our legal, accounting and tax obligations.",
            ],
            "We do not sell your personal information, and we do not use it for automated decisions that produce "
            "legal effects about you.",
        ],
    ),
    (
        "information-sharing",
        "How We Share Information",
        [
            "We share personal information only when it is needed to run our business, and never for third "
            "parties' own marketing. We may share it with:",
            [
                "Service providers who act on our behalf, such as hosting, e-mail delivery and scheduling providers, "
                "under agreements that require them to protect it and use it only for the services they provide "
                "to us.",
                "Professional advisers, such as accountants and lawyers, where necessary.",
                "Authorities or other parties when required by law, or to protect the rights, property or safety "
                "of our clients, our team or others.",
                "A successor organisation if our business is merged, acquired or reorganised, subject to this policy.",
            ],
        ],
    ),
    (
        "cookies",
        "Cookies and Similar Technologies",
        [
            "This website uses only the cookies and browser storage it needs to work. Signing in to the client "
            "portal sets secure, HTTP-only session cookies that keep you signed in and expire automatically. The "
            "site also keeps a temporary identifier in your browser's session storage so that pages can update "
            "without reloading; it is deleted when you close the tab.",
            "We do not use advertising cookies or third-party tracking. You can block or delete cookies in your "
            "browser settings, but parts of the site, such as the client portal, will not work without them.",
        ],
    ),
    (
        "data-security",
        "Data Security",
        [
            "We protect personal information with technical and organisational measures appropriate to its "
            "sensitivity, including encrypted connections (HTTPS), hashed passwords and session tokens, access "
            "limited to staff who need it, and private storage for uploaded documents such as resumes, which are "
            "never publicly accessible.",
            "We keep personal information only as long as we need it for the purposes above or as required by "
            "law; for example, job applications are kept for up to two years unless you ask us to delete them "
            "sooner. No method of transmission or storage is completely secure, but we work to protect your "
            "information and will notify you and the authorities of a breach as the law requires.",
        ],
    ),
    (
        "your-rights",
        "Your Rights and Choices",
        [
            "Depending on where you live, you may have the right to:",
            [
                "Ask what personal information we hold about you and receive a copy of it.",
                "Ask us to correct information that is inaccurate or incomplete.",
                "Ask us to delete your information, subject to records we must keep by law.",
                "Withdraw your consent at any time, for example by unsubscribing from the newsletter using the link "
                "in every e-mail.",
                "Object to or restrict certain uses of your information.",
            ],
            "Client portal users can view and update much of their information, and export their data, from their "
            "account. For any other request, contact us using the details below; we will verify your identity "
            "and respond within 30 days.",
        ],
    ),
    (
        "policy-changes",
        "Changes to This Policy",
        [
            "We may update this Privacy Policy from time to time to reflect changes in our services or in the law. "
            "When we do, we will change the effective date at the top of this page, and if the changes are "
            "significant we will tell you by e-mail or with a notice on this website before they take effect.",
        ],
    ),
    (
        "contact-us",
        "Contact Us",
        [
            # The contact details as stored now (CompanyState), not as they were when the pages were built.
            rx.el.p(
                "If you have questions about this Privacy Policy or how we handle your information, please contact ",
                CompanyState.name,
                " at ",
                CompanyState.email,
                ", by phone at ",
                CompanyState.phone,
                ", or by mail at ",
                CompanyState.address,
                ".",
            ),
        ],
    ),
]


legal_page(
    routes.PRIVACY,
    "Privacy Policy",
    f"How {_CO} collects, uses, shares and protects personal information, and the choices you have.",
    "Your privacy matters to us. This policy explains what information we collect through this website and "
    "our services, how we use it, and the choices you have.",
    SECTIONS,
)
